"""A player's and an organiser's webhooks: adding one (its secret shown
once), listing, removing, renewing the secret and sending a test."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.leagues.leagues import find_league, is_organiser
from pbem.models import User, Webhook, WebhookDelivery, WebhookFormat
from pbem.notify import outbound
from pbem.notify.queue import TEST, queue_delivery
from pbem.services.errors import Forbidden, Invalid, NotFound
from pbem.services.game_organisers import organises
from pbem.services.games import find_game

FORMATS = tuple(WebhookFormat)
MATRIX_PATH = "/send/m.room.message"
RECENT = 5
# What a person is told of a refused address (check_address): its class, never more.
REASONS = {
    outbound.Why.NOT_AN_ADDRESS: lazy_gettext(
        "it is not a web address, or it holds a name and password"
    ),
    outbound.Why.NOT_HTTP: lazy_gettext("it does not start with http:// or https://"),
    outbound.Why.UNRESOLVED: lazy_gettext("its name does not resolve to any address"),
    outbound.Why.LOOPBACK: lazy_gettext("it leads back to the server itself (loopback)"),
    outbound.Why.PRIVATE: lazy_gettext("it is in a private network"),
    outbound.Why.LINK_LOCAL: lazy_gettext(
        "it is a link-local address, like a cloud's metadata service"
    ),
    outbound.Why.NOT_PUBLIC: lazy_gettext("it is not a public address"),
}


def add_hook(
    session: Session,
    user: User,
    url: str,
    format: str,
    config: Mapping[str, Any],
    game: str | None = None,
    league: str | None = None,
) -> tuple[Webhook, str]:
    """The new hook and its secret; Invalid for an address or format that
    cannot be used, Forbidden for a game or league the user does not organise."""
    if format not in FORMATS:
        raise Invalid(_("unknown format %(format)s", format=format))
    if game is not None and league is not None:
        raise Invalid(_("a hook is for a game or a league, not both"))
    _check_address(url, format, config)
    hook = Webhook(user_id=user.id, url=url, format=format, secret=new_secret())
    if game is not None:
        found = find_game(session, game)
        if not organises(found, user):
            raise Forbidden(_("only the game's organiser may add a hook for it"))
        hook.game_id = found.id
    if league is not None:
        found_league = find_league(session, league)
        if not is_organiser(found_league, user):
            raise Forbidden(_("only the league's organisers may do that"))
        hook.league_id = found_league.id
    session.add(hook)
    session.flush()
    return hook, hook.secret


def _check_address(url: str, format: str, config: Mapping[str, Any]) -> None:
    if len(url) > 2000:
        raise Invalid(_("the address is too long"))
    if format == WebhookFormat.MATRIX:
        parts = urlsplit(url)
        if not parts.path.endswith(MATRIX_PATH) or "access_token" not in parse_qs(parts.query):
            raise Invalid(
                _(
                    "a Matrix hook is the room's address ending in /send/m.room.message"
                    " with ?access_token= of the account that posts"
                )
            )
    check_address(url, config)


def check_address(url: str, config: Mapping[str, Any]) -> None:
    """Invalid for an address pbem may not send to (a webhook's or a push
    service's), saying why in the reader's language so its owner can mend it."""
    try:
        outbound.checked(url, config)
    except outbound.Refused as refused:
        why = REASONS[refused.why]
        raise Invalid(_("pbem may not send to that address: %(why)s", why=why)) from None


def new_secret() -> str:
    return secrets.token_hex(32)


def hooks_of(session: Session, user: User) -> list[Webhook]:
    return list(
        session.scalars(select(Webhook).where(Webhook.user_id == user.id).order_by(Webhook.id))
    )


def own_hook(session: Session, user: User, hook_id: int) -> Webhook:
    hook = session.get(Webhook, hook_id)
    if hook is None or hook.user_id != user.id:
        raise NotFound(_("no such webhook"))
    return hook


def remove_hook(session: Session, user: User, hook_id: int) -> None:
    session.delete(own_hook(session, user, hook_id))


def renew_secret(hook: Webhook) -> str:
    """A new secret, shown once; the old one no longer signs anything."""
    hook.secret = new_secret()
    return hook.secret


def send_test(session: Session, hook: Webhook) -> WebhookDelivery:
    """A test delivery, sent at once even to a hook switched off: it is how
    its owner sees the receiver works again (a success switches it back on)."""
    return queue_delivery(session, hook, TEST, {})


def recent_deliveries(session: Session, hook: Webhook) -> list[WebhookDelivery]:
    return list(
        session.scalars(
            select(WebhookDelivery)
            .where(WebhookDelivery.webhook_id == hook.id)
            .order_by(WebhookDelivery.id.desc())
            .limit(RECENT)
        )
    )
