"""Deleting an account for good (the GDPR's right to erasure), asked by its
player through a mailed link or done by an administrator.

What identifies the person goes: the address, the name, tokens, settings,
vacations, chat lines, mail out and in. What other players need stays, under
a name that identifies nobody ("former player N"): finished games keep their
records so they still replay, games under way go on with the stand-in bot in
the seat (as after a resignation), league places are withdrawn so tables
still add up, and rating rows stay, now anonymous. The user's row stays too,
emptied, for those records to point at."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import String, cast, delete, func, or_, select, update
from sqlalchemy.orm import Session

from pbem.db import lock_game, lock_user
from pbem.leagues.leagues import active_entrant
from pbem.leagues.withdrawal import leave_league
from pbem.models import (
    ApiToken,
    BrowserSession,
    ChatMessage,
    ClockStop,
    Entrant,
    Game,
    GameEvent,
    GameStatus,
    InboundMessage,
    League,
    LeagueOrganiser,
    NoticeChoice,
    Outbox,
    PushNotice,
    PushSubscription,
    SeasonEntrant,
    Seat,
    User,
    Webhook,
    WebhookDelivery,
    seat_token,
    utcnow,
)
from pbem.services.errors import Conflict
from pbem.services.names import former_player
from pbem.services.picture_store import store_for
from pbem.services.resign import resign

DELETED_DOMAIN = "deleted.invalid"  # RFC 2606: no mail can ever reach it


def delete_account(session: Session, user: User) -> None:
    """Erase the user; the caller commits. Under the user's lock, then the
    leagues' and the games' locks each writer of them takes."""
    user = lock_user(session, user.id)
    if user.deleted_at is not None:
        raise Conflict(_("this account is deleted already"))
    email, name, label = user.email, user.name, former_player(user.id)
    _leave_leagues(session, user)
    _leave_games(session, user)
    _lock_games(session, user)
    _erase_mail(session, user, email)
    _erase_own_rows(session, user)
    _rename(session, user, label)
    _scrub_mentions(session, user, (email, name), label)
    # Nobody organises what they made any more: no organiser's mail goes to
    # an address that no longer exists.
    session.execute(update(Game).where(Game.created_by_id == user.id).values(created_by_id=None))
    session.execute(
        update(League).where(League.created_by_id == user.id).values(created_by_id=None)
    )
    _empty_user(user, label)
    session.flush()


def _leave_leagues(session: Session, user: User) -> None:
    """Withdrawn from every season under way (bots play the games on, the
    results count as losses), out of every league, organiser of none."""
    entries = session.scalars(select(Entrant).where(Entrant.user_id == user.id)).all()
    for entry in entries:
        if active_entrant(entry.league, user) is not None:
            leave_league(session, entry.league, user)
    session.execute(
        update(Entrant)
        .where(Entrant.invited_email == user.email)
        .values(invited_email=None, left_at=utcnow())
    )
    session.execute(delete(LeagueOrganiser).where(LeagueOrganiser.user_id == user.id))


def _leave_games(session: Session, user: User) -> None:
    """A game under way: the seat goes to the stand-in bot, as a resignation
    does. A game not started yet: the seat is open again."""
    seats = session.scalars(select(Seat).join(Game).where(Seat.user_id == user.id)).all()
    for seat in seats:
        status = seat.game.status
        if status == GameStatus.ACTIVE and not seat.has_left:
            resign(session, seat)
        elif status == GameStatus.OPEN:
            game = lock_game(session, seat.game_id)
            open_again = next(s for s in game.seats if s.id == seat.id)
            open_again.user_id, open_again.name = None, ""
    session.execute(update(Seat).where(Seat.invited_email == user.email).values(invited_email=None))


def _lock_games(session: Session, user: User) -> None:
    """Every game the user sat at or made, finished ones too, whose seats,
    chat, history or title change below: through the game's lock, as every
    change of a game (its new version also tells open pages to reload).
    In the order of their ids, so two deletions at once cannot wait on each other."""
    sat = select(Seat.game_id).where(Seat.user_id == user.id)
    made = select(Game.id).where(Game.created_by_id == user.id)
    for game_id in sorted(set(session.scalars(sat)) | set(session.scalars(made))):
        lock_game(session, game_id)


def _erase_mail(session: Session, user: User, email: str) -> None:
    """Mail to the user and mail from them, kept or waiting, raw or read."""
    session.execute(
        delete(Outbox).where(
            or_(Outbox.recipient_id == user.id, func.lower(Outbox.to_address) == email)
        )
    )
    session.execute(delete(InboundMessage).where(func.lower(InboundMessage.envelope_from) == email))
    needle = email.encode()
    kept = session.execute(
        select(InboundMessage.id, InboundMessage.raw).where(InboundMessage.raw.is_not(None))
    )
    quoting = [row_id for row_id, raw in kept if raw is not None and needle in raw.lower()]
    if quoting:
        session.execute(delete(InboundMessage).where(InboundMessage.id.in_(quoting)))


def _erase_own_rows(session: Session, user: User) -> None:
    """Tokens, sign-ins, vacations, notice choices, webhooks (their deliveries with
    them), browser subscriptions and chat lines: nobody else needs them. A
    chat line stays in its place, shown as removed, so the talk around it
    still reads."""
    for model in (
        ApiToken,
        BrowserSession,
        ClockStop,
        NoticeChoice,
        PushNotice,
        PushSubscription,
    ):
        session.execute(delete(model).where(model.user_id == user.id))
    hooks = select(Webhook.id).where(Webhook.user_id == user.id)
    # The hooks' rows first, then their deliveries': the order a worker
    # recording a delivery's answer takes them (pbem.notify.deliver), so
    # neither waits for the other in a circle.
    session.execute(hooks.order_by(Webhook.id).with_for_update())
    session.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id.in_(hooks)))
    session.execute(delete(Webhook).where(Webhook.user_id == user.id))
    own_seats = select(Seat.id).where(Seat.user_id == user.id)
    session.execute(
        update(ChatMessage)
        .where(ChatMessage.seat_id.in_(own_seats))
        .values(text="", removed_at=func.coalesce(ChatMessage.removed_at, utcnow()))
    )


def _rename(session: Session, user: User, label: str) -> None:
    """The user's seats and league places keep their place in the records
    under the former player's name."""
    session.execute(update(Seat).where(Seat.user_id == user.id).values(name=label))
    session.execute(
        update(SeasonEntrant).where(SeasonEntrant.user_id == user.id).values(name=label)
    )


def _scrub_mentions(session: Session, user: User, identifiers: tuple[str, str], label: str) -> None:
    """Where the name or address was written into other rows (a game's or a
    league's name, a game's history, the other players' chat lines, mails
    queued for others, what the reader said of others' mail), the former
    player's name instead; the board pictures kept of their games, drawn
    with their name, are forgotten (drawn anew when asked)."""
    scrub = _scrubber(identifiers, label)
    games = select(Seat.game_id).where(Seat.user_id == user.id)
    targets = [
        (select(Game).where(Game.created_by_id == user.id), ("title",)),
        (select(League).where(League.created_by_id == user.id), ("name",)),
        (
            select(GameEvent).where(
                or_(GameEvent.game_id.in_(games), GameEvent.actor_id == user.id)
            ),
            ("text", "phrase"),
        ),
        (select(ChatMessage).where(ChatMessage.game_id.in_(games)), ("text",)),
        (_naming(Outbox.payload, identifiers), ("payload", "last_error")),
        (_naming(InboundMessage.detail, identifiers), ("detail",)),
    ]
    for query, fields in targets:
        for row in session.scalars(query):
            for field in fields:
                value = getattr(row, field)
                scrubbed = scrub(value)
                if scrubbed != value:  # rows that never named them stay untouched
                    setattr(row, field, scrubbed)
    store = store_for(session)
    for game in session.scalars(select(Game.public_id).where(Game.id.in_(games))):
        store.forget(game)


def _naming(column: Any, identifiers: tuple[str, str]) -> Any:
    """The rows of a large table whose column's text holds an identifier: the
    database looks, so the scrub reads only those."""
    text = func.lower(cast(column, String))
    table = column.class_
    return select(table).where(or_(*(text.contains(word.lower()) for word in identifiers if word)))


def _scrubber(identifiers: tuple[str, str], label: str) -> Any:
    """Replaces each identifier standing as a word of its own, in text and in
    the strings of JSON values."""
    words = re.compile(
        "|".join(rf"(?<!\w){re.escape(word)}(?!\w)" for word in identifiers if word),
        re.IGNORECASE,
    )

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return words.sub(label, value)
        if isinstance(value, dict):
            return {key: scrub(item) for key, item in value.items()}
        if isinstance(value, list):
            return [scrub(item) for item in value]
        return value

    return scrub


def _empty_user(user: User, label: str) -> None:
    """The row stays for the records to point at; nothing in it is the person's."""
    user.email = f"former-player-{user.id}@{DELETED_DOMAIN}"
    user.name = label
    user.time_zone, user.language = "UTC", None
    user.signed_in_at = user.suspended_at = None
    user.quiet_start = user.quiet_end = None
    user.reminder_hours = user.digest_hour = user.league_digest_day = None
    user.digest_sent_on = user.league_digest_sent_on = None
    user.calendar_token = seat_token()
    user.is_admin = False
    user.deleted_at = utcnow()
