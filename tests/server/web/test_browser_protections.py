"""What browsers are told to refuse: every answer carries a Content-Security-
Policy allowing the site's own scripts only and no framing, nosniff and a
Referrer-Policy; the session and remember-me cookies are SameSite=Lax, and
Secure when the site is served over https; what a signed-in person is
answered is not stored; a number in a route too large for the database is no
page."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from flask import Flask
from werkzeug.routing import IntegerConverter

from pbem.db import get_db
from pbem.numbers import MAX_ID
from pbem.services import accounts
from pbem.services.links import sign_in_token
from tests.server.conftest import app_of_its_own
from tests.server.csrf_browser import Browser


def policy(answer) -> dict[str, str]:
    parts = (
        part.strip().split(" ", 1) for part in answer.headers["Content-Security-Policy"].split(";")
    )
    return {name: value for name, value in parts}


@pytest.mark.parametrize("url", ["/", "/sign-in", "/help", "/api/v1/rulesets", "/games/nope"])
def test_every_answer_forbids_framing_sniffing_and_foreign_scripts(browser, url):
    answer = browser.get(url)
    csp = policy(answer)
    assert csp["script-src"] == "'self'"
    assert csp["frame-ancestors"] == "'none'"
    assert csp["object-src"] == "'none'"
    assert "unsafe" not in csp["default-src"] + csp["style-src"]
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"


def signed_in_cookies(app: Flask) -> dict[str, str]:
    """The Set-Cookie headers of following a sign-in link, by cookie name."""
    with app.app_context(), get_db().session() as session:
        user = accounts.create_user(session, f"ann-{uuid.uuid4().hex[:6]}@example.org", "Ann")
        session.commit()
        token = sign_in_token(user.id, user.signed_in_at)
    browser = Browser(app.test_client())
    browser.get(f"/sign-in/{token}")  # the confirmation page, with its form's token
    answer = browser.post(f"/sign-in/{token}")
    assert answer.status_code == 302
    return {c.split("=", 1)[0]: c for c in answer.headers.getlist("Set-Cookie")}


@pytest.fixture(scope="module")
def https_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with app_of_its_own(
        tmp_path_factory.mktemp("https"), PBEM_BASE_URL="https://pbem.example.org"
    ) as app:
        yield app


def test_cookies_are_secure_on_an_https_site_and_same_site_lax(https_site):
    cookies = signed_in_cookies(https_site)
    assert set(cookies) >= {"session", "remember_token"}
    for cookie in cookies.values():
        assert "; Secure" in cookie
        assert "; HttpOnly" in cookie
        assert "; SameSite=Lax" in cookie


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)
def test_cookies_of_a_plain_http_site_still_reach_it(app):
    cookies = signed_in_cookies(app)
    assert {"session", "remember_token"} <= set(cookies)
    for cookie in cookies.values():
        assert "; Secure" not in cookie
        assert "; SameSite=Lax" in cookie


def test_what_a_signed_in_person_is_answered_is_not_stored(
    app, make_user, signed_in_as, token_for, api
):
    """Their settings and exports would otherwise stay in a shared computer's
    cache, or a proxy's, for the next person to read."""
    ann = make_user("Ann")
    page = signed_in_as(ann)
    for url in ("/settings", "/settings/export", "/"):
        answer = page.get(url)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store", url
    exported = app.test_client().get(
        "/api/v1/account/export", headers={"Authorization": f"Bearer {token_for(ann)}"}
    )
    assert exported.status_code == 200 and exported.headers["Cache-Control"] == "no-store"
    anonymous = app.test_client().get("/help")
    assert "no-store" not in anonymous.headers.get("Cache-Control", "")


def test_an_id_beyond_the_databases_integers_is_no_page(app, make_user, signed_in_as):
    """Every route that takes a number bounds it as the API does: 2^31 found
    nothing on SQLite and made PostgreSQL answer 500."""
    for rule in app.url_map.iter_rules():
        for name, converter in rule._converters.items():
            if isinstance(converter, IntegerConverter):
                assert converter.max == MAX_ID, f"{rule.rule} <{name}>"
    page = signed_in_as(make_user("Ann"))
    for url in (
        f"/settings/webhooks/{2**31}/test",
        f"/settings/webhooks/{2**31}/delete",
        f"/admin/mail/{2**31}/resend",
        f"/games/anything/chat/{2**31}/remove",
    ):
        assert page.post(url).status_code == 404, url
