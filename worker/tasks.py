"""The Celery tasks: thin wrappers that open one session each and call the services."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from flask import current_app

from pbem.clock.sweep import sweep
from pbem.db import get_db
from pbem.dispatch import requeue_stale, send_tasks
from pbem.models import utcnow
from pbem.notify import deliver, push
from pbem.services import bot_thinking, pipeline
from pbem.services.pictures import prune_pictures
from pbem.task_names import (
    PROCESS_SUBMISSION,
    PRUNE_PICTURES,
    REQUEUE_STALE,
    REQUEUE_WEBHOOKS,
    SEND_PUSH,
    SEND_WEBHOOK,
    SWEEP_CLOCKS,
    THINK_BOT,
)
from pbem.task_retry import DATABASE_RETRY


@shared_task(name=PROCESS_SUBMISSION, acks_late=True, reject_on_worker_lost=True, **DATABASE_RETRY)
def process_submission(submission_id: int) -> str | None:
    with get_db().session() as session:
        outcome = pipeline.process_submission(session, submission_id)
    return None if outcome is None else outcome.status


@shared_task(name=THINK_BOT, acks_late=True, reject_on_worker_lost=True, **DATABASE_RETRY)
def think_bot(seat_id: int) -> str:
    """On the bots' queue: a bot thinks for the seat, outside any lock."""
    with get_db().session() as session:
        return bot_thinking.think(session, seat_id)


@shared_task(name=REQUEUE_STALE, **DATABASE_RETRY)
def requeue_stale_submissions() -> int:
    with get_db().session() as session:
        return requeue_stale(session)


@shared_task(name=SWEEP_CLOCKS, **DATABASE_RETRY)
def sweep_clocks() -> str:
    with get_db().session() as session:
        return str(sweep(session))


@shared_task(name=PRUNE_PICTURES, **DATABASE_RETRY)
def prune_kept_pictures() -> int:
    """Run by beat every PBEM_SWEEP_SECONDS: pictures are kept PBEM_PICTURE_KEEP_DAYS."""
    age = timedelta(days=current_app.config["PBEM_PICTURE_KEEP_DAYS"])
    with get_db().session() as session:
        pruned = prune_pictures(session, utcnow() - age)
        session.commit()
    return pruned


@shared_task(name=SEND_WEBHOOK, acks_late=True, reject_on_worker_lost=True, **DATABASE_RETRY)
def send_webhook(delivery_id: int) -> str | None:
    with get_db().session() as session:
        return deliver.deliver(session, delivery_id, current_app.config)


@shared_task(name=SEND_PUSH, acks_late=True, reject_on_worker_lost=True, **DATABASE_RETRY)
def send_push(notice_id: int) -> str | None:
    with get_db().session() as session:
        return push.send_notice(session, notice_id, current_app.config)


@shared_task(name=REQUEUE_WEBHOOKS, **DATABASE_RETRY)
def requeue_webhooks() -> int:
    """Run by beat every PBEM_SWEEP_SECONDS: retries, held and lost webhook
    deliveries and push notices."""
    with get_db().session() as session:
        deliveries, notices = deliver.due_deliveries(session), push.due_notices(session)
    celery = current_app.extensions["celery"]
    send_tasks(celery, SEND_WEBHOOK, deliveries)
    send_tasks(celery, SEND_PUSH, notices)
    return len(deliveries) + len(notices)
