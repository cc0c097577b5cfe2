"""What happened to a game or a league, told to whoever listens once the
transaction that made it has committed.

Services announce into their session; after the commit each announcement is
sent as a blinker signal whose sender is the Flask app, so receivers (handing
work to the Celery workers, metrics, and whatever comes next) need no import
of the services and the services none of them. An announcement of a
transaction that rolls back is never sent. A receiver that fails cannot undo
what is committed: its error is logged and the other receivers still hear.

What must be as durable as the change itself (mail in the outbox, ratings)
is written in the same transaction by the service, not by a receiver here;
or by a recorder (`record`): a receiver of the same announcements that runs
just before the commit, in the announcing transaction, so what it writes
(webhook deliveries, pushes) commits or rolls back with the change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from blinker import NamedSignal, Namespace
from flask import Flask
from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger(__name__)
SESSION_KEY = "pbem.signals"
RECORDERS_KEY = "pbem.signals.recorders"
Recorder = Callable[..., None]  # (app, session, **data)

_signals = Namespace()
# A turn stored for a worker to judge: submission_id, game_id, channel.
submission_stored: NamedSignal = _signals.signal("submission-stored")
# Seats asked to act now: game_id, positions, ply.
turn_started: NamedSignal = _signals.signal("turn-started")
# A seat's moves applied: game_id, position, plies, channel.
move_applied: NamedSignal = _signals.signal("move-applied")
# A turn judged and refused (partly or whole): game_id, position, channel, submission_id.
turn_refused: NamedSignal = _signals.signal("turn-refused")
# The game is over (abandoned or not): game_id, abandoned.
game_ended: NamedSignal = _signals.signal("game-ended")
# A seat given to another player or a bot: game_id, position, old_user_id, new_user_id, why.
seat_changed_hands: NamedSignal = _signals.signal("seat-changed-hands")
# A bot is asked to think for a seat (pbem.services.bot_thinking): game_id, seat_id.
bot_asked: NamedSignal = _signals.signal("bot-asked")
# A seat ran out of time: game_id, position, rule.
timed_out: NamedSignal = _signals.signal("timed-out")
# An organiser changed the game: game_id, kind, organiser_id.
organiser_acted: NamedSignal = _signals.signal("organiser-acted")
# A league round is over (its games finished): season_id, division, round.
league_round_ended: NamedSignal = _signals.signal("league-round-ended")
# A seat's deadline is near (its one reminder is due): game_id, position.
deadline_near: NamedSignal = _signals.signal("deadline-near")
# A league round's games are made: season_id, division, round.
league_round_started: NamedSignal = _signals.signal("league-round-started")
# Rows for a worker to send once committed: task (its name), ids.
stored_for_worker: NamedSignal = _signals.signal("stored-for-worker")


def announce(session: Session, signal: NamedSignal, **data: Any) -> None:
    """Tell the signal's receivers once this session's transaction commits."""
    session.info.setdefault(SESSION_KEY, []).append((signal, data))


def announce_rows(session: Session, task: str, ids: list[int]) -> None:
    """Rows for `task`'s worker, gathered into one announcement per
    transaction, so what one commit stored is handed on together (in
    batches, for a task that takes them: pbem.dispatch)."""
    for signal, data in session.info.get(SESSION_KEY, []):
        if signal is stored_for_worker and data["task"] == task:
            data["ids"].extend(ids)
            return
    announce(session, stored_for_worker, task=task, ids=list(ids))


def record(app: Flask, signal: NamedSignal, recorder: Recorder) -> None:
    """Call `recorder(app, session, **data)` for each announcement of `signal`,
    in the announcing transaction just before it commits; what it fails at
    fails the commit, as a row the service wrote itself would."""
    app.extensions.setdefault(RECORDERS_KEY, {}).setdefault(signal, []).append(recorder)


def deliver_after_commit(app: Flask, sessions: sessionmaker[Session]) -> None:
    """Let the recorders write before each commit of `sessions`, and send what
    each transaction announced once it commits."""

    @event.listens_for(sessions, "before_commit")
    def _record(session: Session) -> None:
        if session.in_nested_transaction():
            return
        recorders = app.extensions.get(RECORDERS_KEY, {})
        for signal, data in list(session.info.get(SESSION_KEY, [])):
            for recorder in recorders.get(signal, ()):
                recorder(app, session, **data)

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


def _send_each(app: Flask, signal: NamedSignal, data: dict[str, Any]) -> None:
    for receiver in signal.receivers_for(app):
        try:
            receiver(app, **data)
        except Exception:
            log.exception("a receiver of %s failed on %s", signal.name, data)
