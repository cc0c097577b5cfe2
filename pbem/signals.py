"""What happened to a game or a league, told to whoever listens once the
transaction that made it has committed.

Services announce into their session; after the commit each announcement is
sent as a blinker signal whose sender is the Flask app, so receivers (handing
work to the Celery workers, metrics, and whatever comes next) need no import
of the services and the services none of them. An announcement of a
transaction that rolls back is never sent. A receiver that fails cannot undo
what is committed: its error is logged and the other receivers still hear.

What must be as durable as the change itself (mail in the outbox, ratings)
is written in the same transaction by the service, not by a receiver here.
"""

from __future__ import annotations

import logging
from typing import Any

from blinker import Namespace, Signal
from flask import Flask
from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger(__name__)
SESSION_KEY = "pbem.signals"

_signals = Namespace()
# A turn stored for a worker to judge: submission_id, game_id, channel.
submission_stored: Signal = _signals.signal("submission-stored")
# Seats asked to act now: game_id, positions, ply.
turn_started: Signal = _signals.signal("turn-started")
# A seat's moves applied: game_id, position, plies, channel.
move_applied: Signal = _signals.signal("move-applied")
# A turn judged and refused (partly or whole): game_id, position, channel, submission_id.
turn_refused: Signal = _signals.signal("turn-refused")
# The game is over (abandoned or not): game_id, abandoned.
game_ended: Signal = _signals.signal("game-ended")
# A seat given to another player or a bot: game_id, position, old_user_id, new_user_id, why.
seat_changed_hands: Signal = _signals.signal("seat-changed-hands")
# A bot is asked to think for a seat (pbem.services.bot_thinking): game_id, seat_id.
bot_asked: Signal = _signals.signal("bot-asked")
# A seat ran out of time: game_id, position, rule.
timed_out: Signal = _signals.signal("timed-out")
# An organiser changed the game: game_id, kind, organiser_id.
organiser_acted: Signal = _signals.signal("organiser-acted")
# A league round is over (its games finished): season_id, division, round.
league_round_ended: Signal = _signals.signal("league-round-ended")


def announce(session: Session, signal: Signal, **data: Any) -> None:
    """Tell the signal's receivers once this session's transaction commits."""
    session.info.setdefault(SESSION_KEY, []).append((signal, data))


def deliver_after_commit(app: Flask, sessions: sessionmaker[Session]) -> None:
    """Send what each transaction of `sessions` announced once it commits."""

    @event.listens_for(sessions, "after_commit")
    def _send(session: Session) -> None:
        if session.in_nested_transaction():
            return  # a savepoint released: nothing is committed yet
        for signal, data in session.info.pop(SESSION_KEY, []):
            _send_each(app, signal, data)

    @event.listens_for(sessions, "after_rollback")
    def _forget(session: Session) -> None:
        if not session.in_nested_transaction():
            session.info.pop(SESSION_KEY, None)


def _send_each(app: Flask, signal: Signal, data: dict[str, Any]) -> None:
    for receiver in signal.receivers_for(app):
        try:
            receiver(app, **data)
        except Exception:
            log.exception("a receiver of %s failed on %s", signal.name, data)
