"""Handing stored submissions to the Celery workers, by task name, so the web
process needs none of the worker's code."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from flask import current_app
from sqlalchemy.orm import Session

from pbem.models import utcnow
from pbem.services.submissions import pending_submission_ids, stale_submission_ids

PROCESS_SUBMISSION = "pbem.process_submission"
REQUEUE_STALE = "pbem.requeue_stale_submissions"


def enqueue_submissions(submission_ids: Iterable[int]) -> None:
    """Call only after the submissions are committed, or a worker may not see them."""
    celery = current_app.extensions["celery"]
    for submission_id in submission_ids:
        celery.send_task(PROCESS_SUBMISSION, args=[submission_id])


def enqueue_pending(session: Session, game_id: int) -> None:
    enqueue_submissions(pending_submission_ids(session, game_id))


def requeue_stale(session: Session) -> int:
    """Hand on submissions still pending after PBEM_STALE_SUBMISSION_SECONDS."""
    age = timedelta(seconds=current_app.config["PBEM_STALE_SUBMISSION_SECONDS"])
    ids = stale_submission_ids(session, utcnow() - age)
    enqueue_submissions(ids)
    return len(ids)
