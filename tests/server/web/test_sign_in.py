"""Sign-in by a mailed link: no passwords, one use, limited time."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from sqlalchemy import select

from pbem.models import Outbox, User
from tests.server.csrf_browser import Browser
from tests.server.web.page_helpers import path_of

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def fresh_email() -> str:
    return f"newcomer-{uuid.uuid4().hex[:8]}@example.org"


def request_link(browser: Browser, session, email: str, next_page: str = "/") -> str:
    response = browser.post("/sign-in", {"email": email, "next": next_page})
    assert response.status_code == 200
    session.expire_all()
    row = session.scalars(
        select(Outbox)
        .join(User, User.id == Outbox.recipient_id)
        .where(User.email == email, Outbox.kind == "sign_in")
        .order_by(Outbox.id.desc())
    ).first()
    return row.payload["link"]


def follow(browser: Browser, link: str):
    confirm = browser.get(path_of(link))
    assert confirm.status_code == 200, confirm.get_data(as_text=True)
    return browser.post(path_of(link), {"next": "/"})


def test_sign_in_request_queues_a_link_in_the_outbox_and_creates_the_user(browser, session):
    email = fresh_email()
    link = request_link(browser, session, email)
    assert link.startswith("http://localhost/sign-in/")
    assert session.scalar(select(User).where(User.email == email)) is not None


def test_embedded_default_shows_the_link_in_the_console(browser, session, caplog):
    with caplog.at_level(logging.INFO, logger="pbem.web.auth"):
        link = request_link(browser, session, fresh_email())
    assert link in caplog.text


def test_link_signs_in_and_asks_a_newcomer_for_a_name(browser, session):
    email = fresh_email()
    response = follow(browser, request_link(browser, session, email))
    assert response.status_code == 302 and response.location.startswith("/welcome")
    page = browser.get(response.location)
    assert "Other players see you by this name" in page.get_data(as_text=True)
    saved = browser.post("/welcome?next=/", {"name": "Nina", "time_zone": "Europe/Berlin"})
    assert saved.status_code == 302
    session.expire_all()
    user = session.scalar(select(User).where(User.email == email))
    assert (user.name, user.time_zone) == ("Nina", "Europe/Berlin")
    assert "My games" in browser.get("/").get_data(as_text=True)


def test_link_works_only_once(browser, app, session):
    link = request_link(browser, session, fresh_email())
    assert follow(browser, link).status_code == 302
    again = Browser(app.test_client())
    assert again.get(path_of(link)).status_code == 400
    assert again.post(path_of(link)).status_code == 400
    assert again.get("/").get_data(as_text=True).count("Sign in") >= 1
    assert "My games" not in again.get("/").get_data(as_text=True)


def test_an_older_link_stops_working_after_a_sign_in(browser, session):
    email = fresh_email()
    older = request_link(browser, session, email)
    newer = request_link(browser, session, email)
    assert follow(browser, newer).status_code == 302
    assert browser.get(path_of(older)).status_code == 400


def test_link_expires(browser, app, session):
    link = request_link(browser, session, fresh_email())
    lifetime = timedelta(minutes=app.config["PBEM_SIGN_IN_LINK_MINUTES"])
    with time_machine.travel(datetime.now(UTC) + lifetime + timedelta(seconds=2)):
        response = browser.get(path_of(link))
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)


def test_forged_link_is_refused(browser, session):
    link = request_link(browser, session, fresh_email())
    token = urlsplit(link).path.rsplit("/", 1)[1]
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    assert browser.get(f"/sign-in/{forged}").status_code == 400


def test_bad_email_address_is_refused_and_nothing_queued(browser, session):
    response = browser.post("/sign-in", {"email": "not an address"})
    assert response.status_code == 422
    assert "is not an e-mail address" in response.get_data(as_text=True)


def test_an_address_with_control_characters_is_refused(browser, session):
    response = browser.post("/sign-in", {"email": "ann\x07@example.org"})
    assert response.status_code == 422
    assert "is not an e-mail address" in response.get_data(as_text=True)


def test_sign_in_sends_back_only_to_pages_of_this_site(browser, session):
    link = request_link(browser, session, fresh_email(), next_page="https://evil.example/")
    assert "next=%2F" in link or link.endswith("next=/")


def test_pages_need_sign_in(browser):
    response = browser.get("/games/new")
    assert response.status_code == 302 and response.location.startswith("/sign-in?next=")


def test_forms_without_csrf_token_are_refused(app):
    client = app.test_client()
    response = client.post("/sign-in", data={"email": fresh_email()})
    assert response.status_code == 400
    assert "Form refused" in response.get_data(as_text=True)


def test_api_needs_no_csrf_token(app, session, make_user):
    from pbem.services.accounts import issue_api_token

    user = make_user("Api")
    token = issue_api_token(session, user)
    session.commit()
    response = app.test_client().post(
        "/api/v1/games",
        json={"ruleset": "taluva", "seats": ["me", "open"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201
