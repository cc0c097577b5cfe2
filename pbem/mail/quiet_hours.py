"""What waits for a reader's quiet hours to end, and what it says then.

A row a kind of notice does not send at once (pbem.services.notifications:
the registry, and queue_notice, which sets when each row may go) waits until
its recipient's quiet hours are over; the sender leaves it until then and
the beat's outbox sweep hands it on once due.

At their end the reader gets one mail per game about where it stands, not
every copy held: the rows of kinds `about_the_board` held for one reader
and game fold into the last of them, which is written as the game stands
when it goes (`kind_now`): the board at its end, their turn, or what was
played since they last heard; nothing if none of that is news. A lone
'moved' that only waited for a quick answer is sent as it is."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.mail.game_text import SeatPicture
from pbem.models import Outbox, OutboxStatus
from pbem.services import notifications
from pbem.services.notifications import KINDS

ABOUT_THE_BOARD = tuple(kind.name for kind in KINDS.values() if kind.about_the_board)
# A digest reader hears of turns and moves in the digest, not in mails of their own.
NOT_FOR_DIGEST = tuple(kind.name for kind in KINDS.values() if kind.in_digest)
HELD = "held"  # payload key: the row waited, and is written as the game stands when it goes
SINCE = "since"  # payload key: the first ply the reader has not heard of


class Stale(Exception):
    """A held mail with nothing left to say when it may go: it is dropped."""


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
    if not rows or [row.kind for row in rows] == [notifications.MOVED]:
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
        return notifications.SINCE_YOU_HEARD
    raise Stale("held until the end of quiet hours, and no longer news")
