"""What browsers are told to refuse: every answer carries a Content-Security-
Policy allowing the site's own scripts only and no framing, nosniff and a
Referrer-Policy; the session and remember-me cookies are SameSite=Lax, and
Secure when the site is served over https."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from flask import Flask

from pbem.db import get_db
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
