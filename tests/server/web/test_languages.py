"""Pages in the reader's language, and catalogues that compile and are complete."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.i18n.catalogues import SOURCE, CatalogueError, compile_catalogues, untranslated


def html_language(response) -> str:
    page = response.get_data(as_text=True)
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


def test_a_visitor_gets_the_language_their_browser_asks_for(app):
    client = app.test_client()
    assert html_language(client.get("/", headers={"Accept-Language": "cs,en;q=0.5"})) == "cs"
    assert html_language(client.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9"})) == "fr"
    # Languages we don't speak fall back to English.
    assert html_language(client.get("/", headers={"Accept-Language": "de-DE"})) == "en"
    assert html_language(client.get("/")) == "en"


def test_a_chosen_language_wins_over_the_browser(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    assert html_language(browser.client.get("/settings")) == "cs"
    ann.language = "fr"
    session.commit()
    assert html_language(browser.client.get("/settings")) == "fr"


def test_the_first_visit_offers_the_browser_language(signed_in_as, make_user):
    browser = signed_in_as(make_user("Ann"))
    browser.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    page = browser.client.get("/welcome").get_data(as_text=True)
    assert '<option value="cs" lang="cs" selected>Čeština</option>' in page


def test_every_catalogue_compiles(tmp_path):
    compile_catalogues(SOURCE, tmp_path)
    sources = sorted(p.relative_to(SOURCE).with_suffix("") for p in SOURCE.rglob("*.po"))
    compiled = sorted(p.relative_to(tmp_path).with_suffix("") for p in tmp_path.rglob("*.mo"))
    assert sources and compiled == sources


def test_a_translation_that_breaks_a_placeholder_is_refused(tmp_path):
    source = tmp_path / "source"
    po = source / "pages" / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
        '#, python-format\nmsgid "%(name)s moved"\nmsgstr "%(nom)s a joué"\n',
        encoding="utf-8",
    )
    with pytest.raises(CatalogueError, match="moved"):
        compile_catalogues(source, tmp_path / "compiled")


def test_a_changed_catalogue_is_compiled_again(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(SOURCE, source)
    target = tmp_path / "compiled"
    compile_catalogues(source, target)
    po = next(source.rglob("fr/LC_MESSAGES/messages.po"))
    po.write_text(
        po.read_text(encoding="utf-8") + '\nmsgid "A test string"\nmsgstr "Une chaîne"\n',
        encoding="utf-8",
    )
    compile_catalogues(source, target)
    mo = target / po.relative_to(source).with_suffix(".mo")
    assert "Une chaîne".encode() in Path(mo).read_bytes()


def test_every_string_of_pages_and_mail_is_translated_in_french_and_czech():
    missing = untranslated()
    listed = "\n".join(f"{m.area} {m.language} {m.problem}: {m.msgid!r}" for m in missing[:40])
    assert not missing, f"{len(missing)} untranslated strings, the first ones:\n{listed}"
