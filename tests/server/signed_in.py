"""A test client signed in as a user the way a sign-in link signs a browser
in: with a sign-in of its own (pbem.accounts.browsers) that its session
names, so the pages load the user as they would for a real browser."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from pbem.accounts.browsers import start_browser_session
from pbem.models import User
from pbem.services.links import sign_in_token
from tests.server.csrf_browser import Browser

COOKIES = ("session", "remember_token")  # Flask's session and Flask-Login's remember-me


def sign_in(app: Flask, client: FlaskClient, user_id: int) -> FlaskClient:
    """`client`, signed in as the user (the sign-in flow itself is tested in
    web/test_sign_in.py and web/test_sign_out.py)."""
    with app.extensions["pbem.db"].session() as session:
        lifetime = app.config["REMEMBER_COOKIE_DURATION"]
        secret = start_browser_session(session, user_id, lifetime)
        session.commit()
    with client.session_transaction() as flask_session:
        flask_session["_user_id"] = secret
        flask_session["_fresh"] = True
    return client


def by_link(app: Flask, session: Session, user: User) -> Browser:
    """A browser of its own, signed in as the user by following a sign-in
    link as a person does (its confirmation page, then its button)."""
    session.refresh(user)  # each sign-in makes the links before it useless
    with app.app_context():
        path = f"/sign-in/{sign_in_token(user.id, user.signed_in_at)}"
    browser = Browser(app.test_client())
    browser.get(path)
    signed = browser.post(path)
    assert signed.status_code == 302, signed.get_data(as_text=True)
    return browser


def copy_of(app: Flask, browser: Browser, names: tuple[str, ...] = COOKIES) -> Browser:
    """Another browser holding a copy of `browser`'s cookies `names` (a
    thief's, or a backup's)."""
    copy = Browser(app.test_client())
    for name in names:
        cookie = browser.client.get_cookie(name)
        assert cookie is not None, name
        copy.client.set_cookie(name, cookie.value)
    return copy


def is_signed_in(browser: Browser) -> bool:
    """Whether the browser gets its settings page (anybody else is sent to sign in)."""
    return browser.get("/settings").status_code == 200
