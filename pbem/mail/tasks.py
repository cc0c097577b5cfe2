"""The mail's Celery tasks: thin wrappers opening one session each."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from flask import current_app

from pbem.db import get_db
from pbem.dispatch import send_tasks
from pbem.mail import imap_poller, inbound, retention, send
from pbem.models import utcnow
from pbem.task_names import (
    FORGET_INBOUND_RAW,
    FORGET_OUTBOX,
    POLL_IMAP,
    PROCESS_INBOUND,
    REQUEUE_INBOUND,
    REQUEUE_OUTBOX,
    SEND_MAIL,
    SEND_MAILS,
)
from pbem.task_retry import DATABASE_RETRY

log = logging.getLogger(__name__)

MAX_SEND_RETRIES = 8


@shared_task(name=SEND_MAILS, bind=True, acks_late=True, reject_on_worker_lost=True)
def send_mails(self: Task[Any, Any], outbox_ids: list[int]) -> int:
    with get_db().session() as session:
        try:
            return send.send_rows(session, outbox_ids, current_app.config)
        except send.Transient as exc:
            if self.request.retries >= MAX_SEND_RETRIES:
                log.warning("outbox %s: giving up for now (%s); the sweep retries", exc.unsent, exc)
                return 0
            wait = send.retry_wait(self.request.retries)
            raise self.retry(args=(exc.unsent,), countdown=wait) from exc


@shared_task(name=SEND_MAIL)
def send_mail(outbox_id: int) -> None:
    """A row queued on its own by a version before batches: handed on as a batch of one."""
    send.enqueue(current_app.extensions["celery"], [outbox_id])


@shared_task(name=REQUEUE_OUTBOX, **DATABASE_RETRY)
def requeue_outbox() -> int:
    with get_db().session() as session:
        config = current_app.config
        ids = send.due_rows(
            session, config["PBEM_MAIL_RETRY_SECONDS"], config["PBEM_MAIL_MAX_ATTEMPTS"]
        )
    send.enqueue(current_app.extensions["celery"], ids)
    return len(ids)


@shared_task(name=PROCESS_INBOUND, acks_late=True, reject_on_worker_lost=True, **DATABASE_RETRY)
def process_inbound(inbound_id: int) -> str | None:
    with get_db().session() as session:
        result = inbound.process(session, inbound_id, current_app.config)
    return None if result is None else result.outcome


@shared_task(name=REQUEUE_INBOUND, **DATABASE_RETRY)
def requeue_inbound() -> int:
    age = timedelta(seconds=current_app.config["PBEM_STALE_SUBMISSION_SECONDS"])
    with get_db().session() as session:
        ids = inbound.received_since(session, utcnow() - age)
    send_tasks(current_app.extensions["celery"], PROCESS_INBOUND, ids)
    return len(ids)


@shared_task(name=FORGET_INBOUND_RAW, **DATABASE_RETRY)
def forget_inbound_raw() -> int:
    """Run by beat every PBEM_SWEEP_SECONDS: raw mail is kept PBEM_MAIL_KEEP_DAYS."""
    age = timedelta(days=current_app.config["PBEM_MAIL_KEEP_DAYS"])
    with get_db().session() as session:
        return retention.forget_inbound_raw(session, utcnow() - age)


@shared_task(name=FORGET_OUTBOX, **DATABASE_RETRY)
def forget_outbox() -> int:
    """Run by beat every PBEM_SWEEP_SECONDS: outbox rows are kept
    PBEM_OUTBOX_KEEP_DAYS, sign-in mail PBEM_SIGN_IN_KEEP_DAYS."""
    with get_db().session() as session:
        return retention.forget_outbox(session, current_app.config, utcnow())


@shared_task(name=POLL_IMAP, **DATABASE_RETRY)
def poll_imap() -> int:
    """Run by beat every PBEM_IMAP_POLL_SECONDS when PBEM_IMAP_URL is set."""
    return imap_poller.poll(current_app._get_current_object())  # type: ignore[attr-defined]  # Flask types current_app as the app, not its proxy
