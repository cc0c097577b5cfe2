"""Applying due timeouts, each exactly once, whoever sweeps and however often.

A seat is timed out under its game's lock, and only if it still owes the same
overdue decision with nothing of its player's waiting to be judged (an answer
stored in time is judged, not overtaken). `timed_out_at` marks the decision
done in the same transaction as what the timeout does, so a second sweep, a
racing beat or a sweep run again after a crash finds nothing to do. Under
on_timeout "bot", a bot of the game's stand-in level makes the decision on
the bots' queue (pbem.services.bot_thinking) and sends it through the one
door; everyone hears of the timeout with the moves it made.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem import signals
from pbem.db import lock_game
from pbem.i18n.phrases import Phrase, phrase
from pbem.models import Game, GameStatus, OnTimeout, Seat
from pbem.services import notifications
from pbem.services.bot_thinking import ask_bots
from pbem.services.events import record_event
from pbem.services.replay import engine_game
from pbem.services.resign import leave_seat
from pbem.services.submissions import pending_submission
from pbem.services.time_control import outcome_said

log = logging.getLogger(__name__)


def due_seat_ids(session: Session, now: datetime) -> list[tuple[int, int]]:
    return [
        (seat_id, game_id)
        for seat_id, game_id in session.execute(
            select(Seat.id, Seat.game_id)
            .join(Game, Game.id == Seat.game_id)
            .where(
                Seat.timeout_at <= now,
                Seat.timed_out_at.is_(None),
                Seat.bot.is_(None),
                Game.status == GameStatus.ACTIVE,
                Game.paused_at.is_(None),
            )
            .order_by(Seat.timeout_at)
        )
    ]


def apply_timeouts(session: Session, now: datetime) -> int:
    """Time out every overdue seat; commits each. Returns how many."""
    applied = 0
    for seat_id, game_id in due_seat_ids(session, now):
        game = lock_game(session, game_id)
        seat = session.get_one(Seat, seat_id, populate_existing=True)
        if not _still_due(session, game, seat, now):
            session.rollback()
            continue
        try:
            time_out(session, game, seat, now)
        except engine.EngineError as exc:  # this game's alone: the other clocks go on
            session.rollback()
            log.error("game %s: seat %s could not be timed out: %s", game_id, seat_id, exc)
            continue
        session.commit()
        applied += 1
    return applied


def _still_due(session: Session, game: Game, seat: Seat, now: datetime) -> bool:
    overdue = seat.timeout_at is not None and seat.timeout_at <= now
    return (
        overdue
        and seat.timed_out_at is None
        and seat.bot is None
        and game.status == GameStatus.ACTIVE
        and game.paused_at is None
        and seat.position in game.to_act
        and pending_submission(session, seat) is None
    )


def time_out(session: Session, game: Game, seat: Seat, now: datetime) -> None:
    """Do what the game's clock says to the late seat; the caller commits.
    EngineError: the game's log no longer replays, so no bot could make the
    late decision; the game is left for someone to look at."""
    seat.timed_out_at = now
    rule = OnTimeout(game.on_timeout)
    if rule == OnTimeout.BOT:
        engine_game(game)  # from its snapshot: cheap, and raises for a broken game
    said = phrase(
        "timeout: %(name)s ran out of time. %(outcome)s",
        name=seat.name,
        outcome=Phrase(outcome_said(rule)[0]),  # one of OUTCOMES, in the catalogues
    )
    record_event(session, game, "timeout", said, seat_position=seat.position)
    signals.announce(
        session, signals.timed_out, game_id=game.id, position=seat.position, rule=rule.value
    )
    if rule == OnTimeout.BOT:
        # The late decision only, thought out on the bots' queue, which then
        # tells everyone (a seat may act again at once in a new decision,
        # which has a clock of its own and is the player's).
        ask_bots(session, game)
        return
    notifications.notify_timeout(session, game, seat, rule)
    if rule == OnTimeout.FORFEIT:
        leave_seat(session, game, seat, "forfeited")
    else:
        notifications.notify_organiser_timeout(session, game, seat)
