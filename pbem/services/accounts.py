"""Users and their API tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime
from zoneinfo import available_timezones

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.models import ApiToken, MovedMail, User, utcnow
from pbem.services.errors import Conflict, Invalid
from pbem.services.names import NAME_LENGTH, checked_name

TOKEN_PREFIX = "pbem_"
# No spaces or control characters: the address goes into the To header.
EMAIL = re.compile(r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")
LANGUAGES = ("en", "de", "fr")


def normalise_email(email: str) -> str:
    email = email.strip().lower()
    if not EMAIL.match(email):
        raise Invalid(f"{email!r} is not an e-mail address")
    return email


def create_user(
    session: Session, email: str, name: str, time_zone: str = "UTC", language: str = "en"
) -> User:
    email = normalise_email(email)
    _check_time_zone(time_zone)
    _check_language(language)
    if session.scalar(select(User.id).where(User.email == email)) is not None:
        raise Conflict(f"there is already a user with e-mail {email}")
    user = User(
        email=email,
        name=checked_name(name.strip() or email.split("@")[0][:NAME_LENGTH]),
        time_zone=time_zone,
        language=language,
    )
    session.add(user)
    session.flush()
    return user


def _check_time_zone(time_zone: str) -> None:
    if time_zone not in available_timezones():
        raise Invalid(f"unknown time zone {time_zone!r} (use names like Europe/Berlin)")


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise Invalid(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")


def update_settings(
    user: User,
    *,
    name: str | None = None,
    time_zone: str | None = None,
    language: str | None = None,
    moved_mail: str | None = None,
) -> None:
    """Change the settings given (None keeps one); nothing changes if one is invalid."""
    if name is not None:
        name = checked_name(name)
    if time_zone is not None:
        _check_time_zone(time_zone)
    if language is not None:
        _check_language(language)
    if moved_mail is not None and moved_mail not in set(MovedMail):
        choices = ", ".join(MovedMail)
        raise Invalid(f"'X moved' mail must be one of {choices}, not {moved_mail!r}")
    changes = {"name": name, "time_zone": time_zone, "language": language, "moved_mail": moved_mail}
    for field, value in changes.items():
        if value is not None:
            setattr(user, field, value)


def user_by_email(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == normalise_email(email)))


def user_for_sign_in(session: Session, email: str) -> User:
    """The user with this address, created on their first sign-in request
    (named after the address until they choose a name)."""
    return user_by_email(session, email) or create_user(session, email, "")


def claim_sign_in(session: Session, user_id: int, last_sign_in: datetime | None) -> bool:
    """Record a sign-in, provided the user's last one is still `last_sign_in`:
    a link made before another sign-in, or used twice at once, is refused."""
    condition = (
        User.signed_in_at.is_(None) if last_sign_in is None else User.signed_in_at == last_sign_in
    )
    changed = session.execute(
        update(User).where(User.id == user_id, condition).values(signed_in_at=utcnow())
    )
    return changed.rowcount == 1


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_api_token(session: Session, user: User, label: str = "") -> str:
    """A new bearer token for `user`; only its hash is stored, so show it now."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, token_hash=_hash(token), label=label))
    session.flush()
    return token


def user_for_token(session: Session, token: str) -> User | None:
    row = session.scalar(select(ApiToken).where(ApiToken.token_hash == _hash(token)))
    if row is None:
        return None
    row.last_used_at = utcnow()
    return row.user
