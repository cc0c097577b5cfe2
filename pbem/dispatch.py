"""Handing stored work to the Celery workers, by task name, so the web
process needs none of the worker's code.

Everything is stored before it is handed on, so a broker that cannot be
reached loses nothing: the sender is told it is stored, and the beat's
sweeps hand it on once the broker is back. A stored submission is handed on
when the transaction that stored it commits (pbem.signals), whoever stored
it: no caller enqueues by hand.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import Flask, current_app
from kombu.exceptions import OperationalError
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem import signals
from pbem.models import Submission, SubmissionStatus, utcnow
from pbem.task_names import PROCESS_SUBMISSION

log = logging.getLogger(__name__)


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


def _hand_on_rows(app: Flask, task: str, ids: list[int], **_about: object) -> None:
    send_tasks(app.extensions["celery"], task, ids)


def _hand_on_stored(app: Flask, submission_id: int, **_about: object) -> None:
    send_tasks(app.extensions["celery"], PROCESS_SUBMISSION, [submission_id])


def requeue_stale(session: Session) -> int:
    """Hand on submissions still pending after PBEM_STALE_SUBMISSION_SECONDS."""
    age = timedelta(seconds=current_app.config["PBEM_STALE_SUBMISSION_SECONDS"])
    ids = stale_submission_ids(session, utcnow() - age)
    send_tasks(current_app.extensions["celery"], PROCESS_SUBMISSION, ids)
    return len(ids)


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
