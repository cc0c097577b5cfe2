"""Signed links sent by mail: sign-in links (short-lived, single use),
invitations (for one seat, or one league, and one address), invitations to take over a
seat the organiser gave to someone else, and a mail's board picture at full
size (that seat's view at that move, which the mail shows already). Nothing secret is stored; the
signature and the state of the database decide whether a link still works."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from flask import current_app, has_request_context, request, url_for
from flask_babel import gettext as _
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from pbem.config import base_url
from pbem.models import Seat, User

SIGN_IN = "pbem.sign-in"
INVITE = "pbem.invite"
TAKE_OVER = "pbem.take-over"
LEAGUE_INVITE = "pbem.league-invite"
PICTURE = "pbem.picture"
DELETE_ACCOUNT = "pbem.delete-account"
DELETE_ACCOUNT_HOURS = 24
INVITE_DAYS = 60
PICTURE_DAYS = 30


class BadLink(Exception):
    """Forged, damaged, expired or already used: the message says which kind."""


def _serializer(purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=purpose)


def absolute_url(endpoint: str, **values: Any) -> str:
    """A link for a mail: from PBEM_BASE_URL, never from a request's Host header
    when that is set (production requires it)."""
    if not has_request_context():  # a mail the worker writes
        path = current_app.url_map.bind("pbem").build(endpoint, values)
        return base_url(current_app.config).rstrip("/") + path
    base = current_app.config.get("PBEM_BASE_URL") or request.host_url
    return base.rstrip("/") + url_for(endpoint, **values)


def calendar_url(user: User) -> str:
    """The secret address of the user's iCalendar feed of deadlines."""
    return absolute_url("calendar.feed", token=user.calendar_token)


def sign_in_token(user_id: int, last_sign_in: datetime | None) -> str:
    stamp = last_sign_in.isoformat() if last_sign_in else None
    return _serializer(SIGN_IN).dumps({"user": user_id, "last": stamp})


def read_sign_in_token(token: str) -> tuple[int, datetime | None]:
    """(user id, the user's last sign-in when the link was made)."""
    max_age = current_app.config["PBEM_SIGN_IN_LINK_MINUTES"] * 60
    data = _load(
        SIGN_IN,
        token,
        max_age,
        _("this sign-in link has expired"),
        _("this sign-in link is not valid"),
    )
    return data["user"], datetime.fromisoformat(data["last"]) if data["last"] else None


def delete_account_url(user: User) -> str:
    """The link that confirms deleting the account, for its address only: once
    the account is gone, the address is too, and the link does nothing."""
    token = _serializer(DELETE_ACCOUNT).dumps({"user": user.id, "email": user.email})
    return absolute_url("account.confirm_deletion", token=token)


def read_delete_account_token(token: str) -> tuple[int, str]:
    """(user id, the address the link was sent to)."""
    data = _load(
        DELETE_ACCOUNT,
        token,
        DELETE_ACCOUNT_HOURS * 3600,
        _("this link to delete an account has expired"),
        _("this link to delete an account is not valid"),
    )
    return data["user"], data["email"]


def invite_token(seat_id: int, email: str) -> str:
    return _serializer(INVITE).dumps({"seat": seat_id, "email": email})


def read_invite_token(token: str) -> tuple[int, str]:
    data = _load(INVITE, token, INVITE_DAYS * 86400, *_invitation_refusals())
    return data["seat"], data["email"]


def take_over_url(seat: Seat, email: str) -> str:
    """The link that brings the new holder of a seat of a game under way to it
    (see pbem.services.organiser.replace), signing them in once."""
    token = _serializer(TAKE_OVER).dumps({"seat": seat.id, "email": email})
    return absolute_url("lobby.take_over", token=token)


def league_invite_token(league_id: str, email: str) -> str:
    return _serializer(LEAGUE_INVITE).dumps({"league": league_id, "email": email})


def read_league_invite_token(token: str) -> tuple[str, str]:
    data = _load(LEAGUE_INVITE, token, INVITE_DAYS * 86400, *_invitation_refusals())
    return data["league"], data["email"]


def read_take_over_token(token: str) -> tuple[int, str]:
    data = _load(TAKE_OVER, token, INVITE_DAYS * 86400, *_invitation_refusals())
    return data["seat"], data["email"]


def picture_url(config: Mapping[str, Any], seat: Seat, ply: int) -> str:
    """The seat's board picture at move `ply`, for a reader of its mail who is
    not signed in on this browser: the link itself is the permission. Written
    by the worker, so from the config rather than a request."""
    game = seat.game.public_id
    signed = URLSafeTimedSerializer(config["SECRET_KEY"], salt=PICTURE)
    key = signed.dumps({"game": game, "seat": seat.position, "ply": ply})
    query = urlencode({"seat": seat.position, "ply": ply, "key": key})
    return f"{base_url(config).rstrip('/')}/games/{game}/board.png?{query}"


def picture_key_allows(key: str, game_id: str, position: int, ply: int | None) -> bool:
    """Whether `key` (from picture_url) shows that seat's picture at that move."""
    try:
        data = _serializer(PICTURE).loads(key, max_age=PICTURE_DAYS * 86400)
    except BadSignature:  # forged or expired (SignatureExpired is one)
        return False
    return data == {"game": game_id, "seat": position, "ply": ply}


def _invitation_refusals() -> tuple[str, str]:
    return _("this invitation link has expired"), _("this invitation link is not valid")


def _load(purpose: str, token: str, max_age: int, expired: str, forged: str) -> dict[str, Any]:
    """The link's data; BadLink with `expired` or `forged` as its message."""
    try:
        return _serializer(purpose).loads(token, max_age=max_age)
    except SignatureExpired:
        raise BadLink(expired) from None
    except BadSignature:
        raise BadLink(forged) from None
