"""Reminder mails: one per decision, when pbem.services.deadlines.reminder_at
says (the player's hours before the timeout, not too early, not in quiet
hours), and once more if the timeout then moves on. Claimed under the
game's lock with a conditional update, so two sweeps at once (or one run
twice) send it once, and no writer of the game waits on the seat's row while
the reminder waits on the game's."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.db import lock_game
from pbem.models import Game, GameStatus, Seat, User
from pbem.services import notifications
from pbem.services.deadlines import MAX_REMINDER_HOURS, reminder_at


def send_reminders(session: Session, now: datetime) -> int:
    """Queue every due reminder; commits. Returns how many were queued."""
    candidates = session.execute(
        select(Seat.id, Seat.game_id, Seat.asked_at, Seat.timeout_at, User)
        .join(User, User.id == Seat.user_id)
        .join(Game, Game.id == Seat.game_id)
        .where(
            Seat.timeout_at > now,
            Seat.timeout_at <= now + timedelta(hours=MAX_REMINDER_HOURS),
            Seat.reminded_at.is_(None),
            Seat.bot.is_(None),
            User.reminder_hours.is_not(None),
            Game.status == GameStatus.ACTIVE,
            Game.paused_at.is_(None),
        )
    ).all()
    sent = 0
    for seat_id, game_id, asked_at, timeout_at, user in candidates:
        due = reminder_at(asked_at, timeout_at, user)
        if due is None or due > now:
            continue
        lock_game(session, game_id)
        claimed = session.execute(
            update(Seat)
            .where(Seat.id == seat_id, Seat.reminded_at.is_(None), Seat.asked_at == asked_at)
            .values(reminded_at=now)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount == 1:
            notifications.notify_reminder(session, session.get_one(Seat, seat_id))
            sent += 1
        session.commit()
    return sent
