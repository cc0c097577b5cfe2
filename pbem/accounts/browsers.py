"""The browsers an account is signed in on. Each sign-in is a row named by a
random secret that only the browser's cookies hold (Flask-Login's id of the
user); the cookies of a browser whose row is gone sign in nobody. So signing
out ends that browser's sign-in for good, even for a copy of its cookies
taken before, without signing out the account's other browsers; signing
out everywhere, a suspension and a deletion end them all. API tokens have
their own revocation."""

from __future__ import annotations

import secrets
from datetime import timedelta

from flask_babel import lazy_gettext
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from pbem.db import lock_user
from pbem.models import BrowserSession, User, utcnow
from pbem.services.accounts import secret_hash
from pbem.services.errors import Forbidden

SUSPENDED = lazy_gettext("this account is suspended: ask the server's administrator")


def start_browser_session(session: Session, user_id: int, lifetime: timedelta) -> str:
    """A new sign-in's secret, for the cookies; the caller commits. Under the
    user's lock, as a suspension takes it, so no sign-in slips in beside one.
    The user's sign-ins older than `lifetime` go: no cookie holds them now."""
    user = lock_user(session, user_id)
    if user.locked_out:
        raise Forbidden(str(SUSPENDED))
    session.execute(
        delete(BrowserSession).where(
            BrowserSession.user_id == user_id, BrowserSession.created_at < utcnow() - lifetime
        )
    )
    secret = secrets.token_urlsafe(32)
    session.add(BrowserSession(user_id=user_id, secret_hash=secret_hash(secret)))
    session.flush()
    return secret


def browser_session_user(session: Session, secret: str, lifetime: timedelta) -> User | None:
    """The account a browser's secret signs in, while that sign-in lasts and
    the account is neither suspended nor deleted."""
    found = session.scalar(
        select(BrowserSession).where(BrowserSession.secret_hash == secret_hash(secret))
    )
    if found is None or found.created_at < utcnow() - lifetime or found.user.locked_out:
        return None
    return found.user


def end_browser_session(session: Session, secret: str) -> None:
    """This browser signs out: its cookies, and any copy of them, sign in
    nobody any more. The caller commits."""
    session.execute(delete(BrowserSession).where(BrowserSession.secret_hash == secret_hash(secret)))


def end_every_browser_session(session: Session, user_id: int) -> None:
    """Every browser of the account signs out, wherever it is. The caller commits."""
    session.execute(delete(BrowserSession).where(BrowserSession.user_id == user_id))
