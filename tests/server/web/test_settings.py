"""The settings page: name, time zone, language and the 'X moved' mails."""

from __future__ import annotations

import pytest

from pbem.models import User


def reload(session, user: User) -> User:
    session.expire_all()
    return session.get(User, user.id)


def test_settings_page_shows_the_current_choices(signed_in_as, make_user):
    page = signed_in_as(make_user("Ann")).get("/settings").get_data(as_text=True)
    assert "Your settings" in page and 'value="Ann"' in page
    assert "<option selected>UTC</option>" in page
    assert '<option value="en" lang="en" selected>English</option>' in page
    assert 'value="each" checked' in page and 'value="never">' in page


def test_settings_are_saved(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get("/settings")
    form = {"name": "Anna", "time_zone": "America/Lima", "language": "fr", "moved_mail": "never"}
    saved = browser.post("/settings", form)
    assert saved.status_code == 302 and saved.location == "/settings?saved=1"
    assert "Enregistré." in browser.get(saved.location).get_data(as_text=True)  # now in French
    user = reload(session, ann)
    assert (user.name, user.time_zone, user.language, user.moved_mail) == (
        "Anna",
        "America/Lima",
        "fr",
        "never",
    )


def test_an_unknown_time_zone_is_refused_and_nothing_is_saved(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get("/settings")
    form = {"name": "Anna", "time_zone": "Europe/Atlantis", "language": "en", "moved_mail": "never"}
    refused = browser.post("/settings", form)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "unknown time zone" in page and 'value="Anna"' in page  # the form keeps what was typed
    assert (reload(session, ann).name, reload(session, ann).moved_mail) == ("Ann", "each")


@pytest.mark.parametrize("page", ["/settings", "/welcome"])
def test_a_name_with_a_line_break_is_refused_and_nothing_is_saved(
    signed_in_as, make_user, session, page
):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get(page)
    form = {"name": "Anna\nBcc: all@x.test", "time_zone": "UTC", "language": "fr"}
    refused = browser.post(page, form)
    assert refused.status_code == 422
    assert "may not contain control characters" in refused.get_data(as_text=True)
    assert (reload(session, ann).name, reload(session, ann).language) == ("Ann", None)


def test_an_unknown_mail_choice_is_refused(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get("/settings")
    form = {"name": "Ann", "time_zone": "UTC", "language": "en", "moved_mail": "hourly"}
    assert browser.post("/settings", form).status_code == 422
    assert reload(session, ann).moved_mail == "each"


def test_a_form_without_its_csrf_token_is_refused(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    form = {"name": "Mallory", "time_zone": "UTC", "language": "en", "moved_mail": "never"}
    refused = browser.client.post("/settings", data=form)
    assert refused.status_code == 400 and "Form refused" in refused.get_data(as_text=True)
    assert reload(session, ann).name == "Ann"


def test_settings_need_a_signed_in_user(browser):
    response = browser.get("/settings")
    assert response.status_code == 302 and response.location.startswith("/sign-in")


def test_the_header_links_to_the_settings(signed_in_as, make_user):
    page = signed_in_as(make_user("Ann")).get("/").get_data(as_text=True)
    assert 'href="/settings"' in page


def test_every_page_links_the_favicon_which_is_also_at_the_usual_address(app):
    client = app.test_client()
    page = client.get("/sign-in").get_data(as_text=True)
    assert '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">' in page
    svg = client.get("/assets/favicon.svg")
    assert svg.status_code == 200 and b"<svg" in svg.data
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico.data.startswith(b"\x00\x00\x01\x00")  # an ICO file


def test_the_welcome_page_marks_the_zone_for_the_browsers_own(signed_in_as, make_user):
    browser = signed_in_as(make_user("Ann"))
    assert "data-browser-zone" in browser.get("/welcome").get_data(as_text=True)
    assert "data-browser-zone" not in browser.get("/settings").get_data(as_text=True)


def test_a_language_we_do_not_speak_is_refused(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get("/settings")
    form = {"name": "Ann", "time_zone": "UTC", "language": "de", "moved_mail": "never"}
    refused = browser.post("/settings", form)
    assert refused.status_code == 422 and "language must be one of en, fr, cs" in refused.get_data(
        as_text=True
    )
    assert reload(session, ann).language is None
