"""Handing stored work to the Celery workers, by task name, so the web
process needs none of the worker's code.

Everything is stored before it is handed on, so a broker that cannot be
reached loses nothing: the sender is told it is stored, and the beat's
sweeps hand it on once the broker is back. A stored submission is handed on
when the transaction that stored it commits (pbem.signals), whoever stored
it: no caller enqueues by hand. So is a bot asked to think, on the bots'
own queue (PBEM_BOT_QUEUE, routed in worker.celery_app).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import Flask, current_app
from kombu.exceptions import OperationalError
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem import signals
from pbem.models import Seat, Submission, SubmissionStatus, utcnow
from pbem.task_names import PROCESS_SUBMISSION, SEND_MAILS, THINK_BOT

log = logging.getLogger(__name__)
# Tasks that take a list of rows, and how many at most: a batch of mail
# replays each of its games once and sends through one SMTP connection.
BATCHES = {SEND_MAILS: 50}


def send_tasks(celery: Any, task: str, row_ids: Iterable[int]) -> bool:
    """Send one task per stored row; False if the broker cannot be reached.
    The rows stay stored and the sweeps hand them on, so the caller answers
    as usual; the first failure stops the rest (each try waits for a timeout)."""
    return _hand_on(celery, task, row_ids)


def send_batches(celery: Any, task: str, row_ids: Sequence[int], size: int) -> bool:
    """As send_tasks, but one task per `size` rows, given the list of their ids."""
    batches = (list(row_ids[start : start + size]) for start in range(0, len(row_ids), size))
    return _hand_on(celery, task, batches)


def _hand_on(celery: Any, task: str, arguments: Iterable[int | list[int]]) -> bool:
    for argument in arguments:
        try:
            celery.send_task(task, args=[argument])
        except (OperationalError, OSError) as exc:
            log.warning("broker unreachable, %s %s left for the sweep: %s", task, argument, exc)
            return False
    return True


def init_app(_app: Flask) -> None:
    signals.submission_stored.connect(_hand_on_stored)
    signals.stored_for_worker.connect(_hand_on_rows)
    signals.bot_asked.connect(_hand_on_think)


def _hand_on_rows(app: Flask, task: str, ids: list[int], **_about: object) -> None:
    size = BATCHES.get(task)
    if size is None:
        send_tasks(app.extensions["celery"], task, ids)
    else:  # a game's rows together
        send_batches(app.extensions["celery"], task, sorted(ids), size)


def _hand_on_stored(app: Flask, submission_id: int, **_about: object) -> None:
    send_tasks(app.extensions["celery"], PROCESS_SUBMISSION, [submission_id])


def _hand_on_think(app: Flask, seat_id: int, **_about: object) -> None:
    send_tasks(app.extensions["celery"], THINK_BOT, [seat_id])


def requeue_stale(session: Session) -> int:
    """Hand on submissions still pending after PBEM_STALE_SUBMISSION_SECONDS,
    and thinks asked PBEM_STALE_THINK_SECONDS ago and still unanswered
    (their message lost, or their worker killed); returns how many of both."""
    config, celery = current_app.config, current_app.extensions["celery"]
    now = utcnow()
    pending_before = now - timedelta(seconds=config["PBEM_STALE_SUBMISSION_SECONDS"])
    ids = stale_submission_ids(session, pending_before)
    send_tasks(celery, PROCESS_SUBMISSION, ids)
    asked_before = now - timedelta(seconds=config["PBEM_STALE_THINK_SECONDS"])
    seats = stale_think_seat_ids(session, asked_before)
    session.execute(
        update(Seat)
        .where(Seat.id.in_(seats), Seat.bot_asked_at < asked_before)
        .values(bot_asked_at=now)
    )
    session.commit()  # asked anew: the next sweep waits as long again
    send_tasks(celery, THINK_BOT, seats)
    return len(ids) + len(seats)


def stale_think_seat_ids(session: Session, older_than: datetime) -> list[int]:
    """Seats whose bot was asked to think before `older_than` and never answered."""
    return list(
        session.scalars(
            select(Seat.id).where(Seat.bot_asked_at < older_than).order_by(Seat.bot_asked_at)
        )
    )


def stale_submission_ids(session: Session, older_than: datetime) -> list[int]:
    """Pending submissions nobody has picked up: their task message was lost."""
    return list(
        session.scalars(
            select(Submission.id)
            .where(
                Submission.status == SubmissionStatus.PENDING,
                Submission.created_at < older_than,
            )
            .order_by(Submission.id)
        )
    )
