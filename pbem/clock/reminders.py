"""Reminder mails: one per decision, when pbem.services.deadlines.reminder_at
says (the player's hours before the timeout, not too early, not in quiet
hours), and once more if the timeout then moves on. Sent under the game's
lock after checking the seat again there, so two sweeps at once (or one run
twice) send it once, a decision that ended or was paused meanwhile gets none,
and no writer of the game waits on the seat's row while the reminder waits
on the game's."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem import signals
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
        if not _due(asked_at, timeout_at, user, now):
            continue
        game = lock_game(session, game_id)
        seat = next(s for s in game.seats if s.id == seat_id)  # as it is under the lock
        if _still_owed(game, seat, now):
            seat.reminded_at = now
            notifications.notify_reminder(session, seat)
            signals.announce(
                session, signals.deadline_near, game_id=game_id, position=seat.position
            )
            sent += 1
        session.commit()
    return sent


def _still_owed(game: Game, seat: Seat, now: datetime) -> bool:
    going_on = game.status == GameStatus.ACTIVE and game.paused_at is None
    if not going_on or seat.reminded_at is not None or seat.bot is not None or seat.user is None:
        return False
    return _due(seat.asked_at, seat.timeout_at, seat.user, now)


def _due(asked_at: datetime | None, timeout_at: datetime | None, user: User, now: datetime) -> bool:
    """Whether the decision asked at `asked_at` should be reminded of by now."""
    if asked_at is None or timeout_at is None or timeout_at <= now:
        return False
    due = reminder_at(asked_at, timeout_at, user)
    return due is not None and due <= now
