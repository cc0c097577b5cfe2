"""No game mail in a player's quiet hours: a row queued inside them gets
`not_before` = their end, whatever part of the app queued it. The sender
leaves it until then and the beat's outbox sweep hands it on once due.

Answers to what the recipient is doing right now (a sign-in link, the answer
to their mail or to their turn) are sent at once: they are awake. So is an
invitation: the one who invited is waiting, and the invitee's time zone is
not known before they sign in.

At their end the reader gets one mail per game about where it stands, not
every copy held: the rows about the board (ABOUT_THE_BOARD) held for one
reader and game fold into the last of them, which is written as the game
stands when it goes (`kind_now`): the board at its end, their turn, or what
was played since they last heard; nothing if none of that is news."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from flask import Flask
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from pbem.leagues import notices
from pbem.mail.game_text import SeatPicture
from pbem.models import Outbox, OutboxStatus, User, utcnow
from pbem.services import notifications
from pbem.services.deadlines import out_of_quiet_hours

AT_ONCE = {
    notifications.SIGN_IN,
    notifications.INVITE,
    notices.LEAGUE_INVITE,
    notifications.MAIL_ANSWER,
    notifications.ACCEPTED,
    notifications.REJECTED,
}
# Mails that only say where a game stands: one held for a reader tells all the others did.
ABOUT_THE_BOARD = (
    notifications.YOUR_TURN,
    notifications.MOVED,
    notifications.GAME_OVER,
    notifications.REMINDER,
)
# A digest reader hears of turns and moves in the digest, not in mails of their own.
NOT_FOR_DIGEST = (notifications.YOUR_TURN, notifications.MOVED)
HELD = "held"  # payload key: the row waited, and is written as the game stands when it goes
SINCE = "since"  # payload key: the first ply the reader has not heard of
SINCE_YOU_HEARD = "since_you_heard"  # how a folded row is written when it is not their turn


class Stale(Exception):
    """A held mail with nothing left to say when it may go: it is dropped."""


def held_until(session: Session, row: Outbox, now: datetime) -> datetime | None:
    """When the row may go out, if not now: the end of its recipient's quiet hours."""
    if row.recipient_id is None or row.kind in AT_ONCE:
        return None
    with session.no_autoflush:
        user = session.get(User, row.recipient_id)
    if user is None:
        return None
    end = out_of_quiet_hours(now, user)
    return end if end > now else None


def is_held(row: Outbox, now: datetime) -> bool:
    return row.not_before is not None and row.not_before > now


def hold_in_quiet_hours(app: Flask) -> None:
    """Every outbox row any session of the app adds is checked before it is written."""
    sessions = app.extensions["pbem.db"].sessionmaker

    @event.listens_for(sessions, "before_flush")
    def _hold(session: Session, _context: object, _instances: object) -> None:
        now = utcnow()
        for row in session.new:
            if isinstance(row, Outbox) and row.not_before is None:
                row.not_before = held_until(session, row, now)


def fold_released(session: Session, now: datetime) -> None:
    """Of the rows about the board whose quiet hours are over, keep one per
    reader and game (the last), marked to be written as the game stands then
    and from the first move the dropped ones told of; the caller commits."""
    due = session.scalars(
        select(Outbox)
        .where(
            Outbox.status == OutboxStatus.PENDING,
            Outbox.not_before.is_not(None),
            Outbox.not_before <= now,
            Outbox.kind.in_(ABOUT_THE_BOARD),
            Outbox.game_id.is_not(None),
            Outbox.recipient_id.is_not(None),
        )
        .order_by(Outbox.id)
    )
    groups: dict[tuple[int | None, int | None], list[Outbox]] = defaultdict(list)
    for row in due:
        groups[(row.recipient_id, row.game_id)].append(row)
    for rows in groups.values():
        _fold(rows)


def _fold(rows: list[Outbox]) -> None:
    reader = rows[0].recipient
    if reader is not None and reader.digest_hour is not None:
        for row in rows:
            if row.kind in NOT_FOR_DIGEST:
                _drop(row, "the reader chose the daily digest")
        rows = [row for row in rows if row.kind not in NOT_FOR_DIGEST]
    if not rows:
        return
    *older, kept = rows
    firsts = [first for first in map(_first_unheard, rows) if first is not None]
    for row in older:
        _drop(row, f"folded into outbox {kept.id}")
    kept.payload = {**kept.payload, HELD: True, SINCE: min(firsts, default=None)}


def _first_unheard(row: Outbox) -> int | None:
    payload: dict[str, Any] = row.payload
    return payload.get(SINCE, payload.get("first_ply"))


def _drop(row: Outbox, why: str) -> None:
    row.status, row.last_error = OutboxStatus.DROPPED, why


def kind_now(row: Outbox, picture: SeatPicture) -> str:
    """What the row's mail says: its own kind, or for a folded held row the
    news as the game stands: over, the reader's turn, or the moves since they
    last heard. Raises Stale when none of these is news any more."""
    if not row.payload.get(HELD):
        return row.kind
    if picture.result is not None or not picture.to_act:
        return notifications.GAME_OVER
    if picture.my_turn:
        return notifications.YOUR_TURN
    if row.payload.get(SINCE) is not None:
        return SINCE_YOU_HEARD
    raise Stale("held until the end of quiet hours, and no longer news")
