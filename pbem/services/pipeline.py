"""Processing a stored submission: the one path every move takes, bots' included.

Under the game lock: replay the log, check the seat may act and is still
held by whoever the submission was sent for, apply all the submission's moves
or none (but a draw cannot be taken back: when a move after a draw fails, the
moves up to the draw stand, see engine.Game.play_submission), store them,
mark the submission, queue notifications and ask the bots that must act
now to think (on their own queue once this commits, see
pbem.services.bot_thinking). A submission already judged is left alone, so
a redelivered task changes nothing.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app, has_app_context
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem import signals
from pbem.config import moved_mail_wait_setting
from pbem.db import lock_game
from pbem.i18n.rules import refusal_of
from pbem.logs import bind, log_context
from pbem.metrics import events
from pbem.models import Channel, Game, GameStatus, Move, Submission, SubmissionStatus, utcnow
from pbem.services import notifications, snapshots
from pbem.services.bot_thinking import ask_bots
from pbem.services.deadlines import follow_to_act
from pbem.services.events import record_announcements
from pbem.services.ratings import rate_game
from pbem.services.replay import engine_game, setup_of
from pbem.services.results import keep_result
from pbem.services.submissions import submission_lines

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    status: str
    reason: str | None = None


def process_submission(session: Session, submission_id: int) -> Outcome | None:
    """Judge one submission exactly once; commits. None if it no longer exists."""
    with log_context(submission=submission_id):
        return _process(session, submission_id)


def _process(session: Session, submission_id: int) -> Outcome | None:
    game_id = session.scalar(select(Submission.game_id).where(Submission.id == submission_id))
    if game_id is None:
        return None
    started = time.perf_counter()
    game = lock_game(session, game_id)
    bind(game=game.public_id)
    submission = session.get(Submission, submission_id, populate_existing=True)
    assert submission is not None  # games and their submissions are deleted together
    if submission.status != SubmissionStatus.PENDING:
        session.rollback()
        return Outcome(submission.status, submission.reason)
    _judge(session, game, submission)
    outcome = Outcome(submission.status, submission.reason)
    channel, ruleset = submission.channel, game.ruleset
    waited = (utcnow() - submission.created_at).total_seconds()
    session.commit()
    events.submission_judged(
        channel, outcome.status, ruleset, time.perf_counter() - started, waited
    )
    log.info("submission %s %s", submission_id, outcome.status)
    return outcome


def _judge(session: Session, game: Game, submission: Submission) -> None:
    position = submission.seat.position
    submission.processed_at = utcnow()
    try:
        if game.status == GameStatus.OPEN:
            raise engine.IllegalMove.of("pbem.not_started")
        if game.abandoned_at is not None:
            raise engine.IllegalMove.of("pbem.abandoned")
        if submission.seat.has_left and submission.channel != Channel.BOT:
            raise engine.IllegalMove.of("pbem.resigned")
        if submission.sent_for_id != submission.seat.user_id:
            raise engine.IllegalMove.of("pbem.seat_changed_hands")
        played = engine_game(game)
        waiting = played.state.to_act()
        first_new = len(played.log)
        announced = len(played.state.announcements(played.seats))
        lines = submission_lines(submission.raw_text)
        if not lines:
            raise engine.IllegalMove.of("pbem.no_move")
        partly = played.play_submission(position, lines)
    except engine.IllegalMove as exc:
        _refused(session, game, submission, exc)
        return
    for ply, entry in enumerate(played.log[first_new:], start=first_new + 1):
        session.add(
            Move(
                game_id=game.id,
                ply=ply,
                seat_id=submission.seat_id,
                text=entry.text,
                channel=submission.channel,
                submission_id=submission.id,
            )
        )
    record_announcements(session, game, played, since=announced)
    snapshots.keep(session, game.id, setup_of(game), played)
    goes_on = played.state.turn_goes_on(position)
    if partly is None:
        submission.status = SubmissionStatus.ACCEPTED
        notifications.notify_accepted(
            session, submission, [entry.text for entry in played.log[first_new:]], goes_on
        )
    else:
        submission.status, submission.reason = SubmissionStatus.PARTIAL, str(partly)
        submission.refusal = refusal_of(partly)
        notifications.notify_rejected(session, submission, played=list(partly.played))
    signals.announce(
        session,
        signals.move_applied,
        game_id=game.id,
        position=position,
        plies=list(range(first_new + 1, len(played.log) + 1)),
        channel=submission.channel,
    )
    # The mover's 'your turn' still stands while it goes on with the same turn.
    already_waiting = waiting if goes_on else waiting - {position}
    after_change(session, game, played, already_waiting)
    # Else everyone has 'game over' with the last moves; a turn that goes on
    # (a Java turn sent action by action) is told in one mail once it ends.
    if game.status == GameStatus.ACTIVE and not goes_on:
        notifications.notify_moved(
            session,
            submission.seat,
            plies=range(turn_start(played.log, position) + 1, len(played.log) + 1),
            told_to_act=newly_to_act(played, already_waiting),
            wait=_moved_mail_wait(),
        )


def _moved_mail_wait() -> timedelta:
    """The app's setting; the environment's where no app runs (a script replaying games)."""
    if has_app_context():
        return timedelta(seconds=current_app.config["PBEM_MOVED_MAIL_WAIT_SECONDS"])
    return timedelta(seconds=moved_mail_wait_setting())


def _refused(
    session: Session, game: Game, submission: Submission, refusal: engine.IllegalMove
) -> None:
    """Tell whoever sent it why; a refused timeout move leaves the seat due,
    so the next sweep acts on the decision it still owes."""
    submission.status, submission.reason = SubmissionStatus.REJECTED, str(refusal)
    submission.refusal = refusal_of(refusal)
    if submission.sent_for_id != submission.seat.user_id:
        notifications.notify_not_played(session, submission)
    else:
        notifications.notify_rejected(session, submission)
    if submission.channel == Channel.CLOCK:
        submission.seat.timed_out_at = None
    signals.announce(
        session,
        signals.turn_refused,
        game_id=game.id,
        position=submission.seat.position,
        channel=submission.channel,
        submission_id=submission.id,
    )
    if game.status == GameStatus.ACTIVE:
        ask_bots(session, game)


def turn_start(log: list[engine.LoggedMove], seat: int) -> int:
    """Where the seat's turn that ends the log began: its run of moves at the
    end (turns alternate between seats in every ruleset here)."""
    start = len(log)
    while start > 0 and log[start - 1].seat == seat:
        start -= 1
    return start


def after_change(
    session: Session, game: Game, played: engine.Game, already_waiting: frozenset[int]
) -> None:
    """Finish the game, or tell the seats that must now act and let bots move.

    Seats in `already_waiting` were told before and have not moved since.
    """
    result = played.result()
    game.to_act = sorted(played.state.to_act())
    newly = newly_to_act(played, already_waiting)
    if result is not None:
        game.status, game.finished_at = GameStatus.FINISHED, utcnow()
        keep_result(game, result)
        rate_game(session, game, result)
    follow_to_act(session, game, newly)
    if result is not None:
        notifications.notify_game_over(session, game, result)
        signals.announce(session, signals.game_ended, game_id=game.id, abandoned=False)
        return
    notifications.notify_turn(session, game, newly, ply=len(played.log))
    if newly:
        signals.announce(
            session,
            signals.turn_started,
            game_id=game.id,
            positions=sorted(newly),
            ply=len(played.log),
        )
    ask_bots(session, game)


def newly_to_act(played: engine.Game, already_waiting: frozenset[int]) -> frozenset[int]:
    """The seats a change tells 'your turn': those that must act and were not told before."""
    return played.state.to_act() - already_waiting
