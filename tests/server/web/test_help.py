"""`/help`: how to play by mail in the reader's language, from the same files
as docs/mail/, listing exactly the command words that language's mails read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.i18n.command_words import COMMAND_WORDS, command_named

ROOT = Path(__file__).resolve().parents[3]
TITLES = {"en": "How to play by mail", "fr": "Jouer par courriel", "cs": "Jak hrát e-mailem"}
NOTATIONS = ROOT / "pbem" / "help" / "notation"
COMMAND_ROW = re.compile(r"<tr>\s*<td>(.*?)</td>\s*<td><code>(\w+)</code></td>", re.S)


def commands_shown(page: str) -> dict[str, tuple[str, ...]]:
    """The table's rows: the English command, and the words shown for it."""
    return {
        english: tuple(re.findall(r"<code>(.*?)</code>", words))
        for words, english in COMMAND_ROW.findall(page)
    }


@pytest.mark.parametrize("language", ["en", "fr", "cs"])
def test_the_help_in_each_language_lists_its_command_words(app, language):
    response = app.test_client().get(f"/help?lang={language}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f'<html lang="{language}">' in page and f"<h1>{TITLES[language]}</h1>" in page
    assert commands_shown(page) == COMMAND_WORDS[language]
    assert set(commands_shown(page)) == set(COMMAND_WORDS["en"])
    for english, words in commands_shown(page).items():
        assert all(command_named(word) == english for word in words)


def test_without_lang_the_page_language_is_taken(app, signed_in_as, make_user, session):
    visitor = app.test_client().get("/help", headers={"Accept-Language": "cs"})
    assert "<h1>Jak hrát e-mailem</h1>" in visitor.get_data(as_text=True)
    ann = make_user("Ann")
    ann.language = "fr"
    session.commit()
    page = signed_in_as(ann).get("/help").get_data(as_text=True)
    assert "<h1>Jouer par courriel</h1>" in page
    assert "<h1>How to play by mail</h1>" in signed_in_as(ann).get("/help?lang=en").get_data(
        as_text=True
    )
    unknown = app.test_client().get("/help?lang=de", headers={"Accept-Language": "fr"})
    assert "<h1>Jouer par courriel</h1>" in unknown.get_data(as_text=True)


@pytest.mark.parametrize("language", ["en", "fr", "cs"])
def test_the_docs_are_the_page_text(language):
    """docs/mail/ and the packaged help are one file, not two copies."""
    doc = ROOT / "docs" / "mail" / f"{language}.md"
    assert doc.resolve() == (ROOT / "pbem" / "help" / f"{language}.md").resolve()


@pytest.mark.parametrize("game", ["java", "taluva", "samurai"])
@pytest.mark.parametrize("language", ["en", "fr", "cs"])
def test_each_game_has_its_notation_page_in_each_language(app, game, language):
    response = app.test_client().get(f"/help/{game}?lang={language}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and f'<html lang="{language}">' in page
    source = NOTATIONS / (f"{game}.md" if language == "en" else f"{game}.{language}.md")
    heading = source.read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
    heading = re.sub(r"`(.*?)`", r"<code>\1</code>", heading)
    assert f"<h1>{heading}</h1>" in page
    assert not re.search(r'href="[^"]*\.md', page)  # links go to pages, not files
    if language != "en":  # the canonical notation is a page too
        assert f'href="/help/{game}?lang=en"' in page
    for other in ("en", "fr", "cs"):
        if other != language:
            assert f'href="/help/{game}?lang={other}"' in page


def test_the_czech_notation_page_reads_in_czech(app):
    page = app.test_client().get("/help/taluva?lang=cs").get_data(as_text=True)
    assert "<h1>Zápis tahů: Taluva</h1>" in page and "<title>Jak zapsat tah: Taluva" in page


def test_the_help_links_every_notation_page_and_names_no_source_path(app):
    for language in ("en", "fr", "cs"):
        page = app.test_client().get(f"/help?lang={language}").get_data(as_text=True)
        assert "docs/notation" not in page
        for game in ("java", "taluva", "samurai"):
            assert f'href="/help/{game}?lang={language}"' in page


def test_a_game_without_notation_is_not_found(app):
    assert app.test_client().get("/help/chess").status_code == 404


@pytest.mark.parametrize("game", ["java", "taluva", "samurai"])
def test_the_notation_docs_are_the_page_text(game):
    for name in (f"{game}.md", f"{game}.fr.md", f"{game}.cs.md"):
        assert (ROOT / "docs" / "notation" / name).resolve() == (NOTATIONS / name).resolve()
