"""Sending the outbox: one Celery task per row, queued once the row is committed.

A row is claimed before it is sent, so two workers never send it twice; a
server that is down makes the task retry with growing waits, and once those
retries are spent the row stays pending and the beat sweep hands it on again
after PBEM_MAIL_RETRY_SECONDS. Mail is delayed, never lost.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from celery import Celery
from flask import Flask
from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from pbem.dispatch import send_tasks
from pbem.mail.compose import compose
from pbem.mail.transport import PermanentFailure, deliver
from pbem.models import Outbox, OutboxStatus, utcnow

log = logging.getLogger(__name__)

SEND_MAIL = "pbem.send_mail"
CLAIM_SECONDS = 120
SESSION_KEY = "pbem.new_outbox"


class Transient(Exception):
    """Sending failed for now; the task retries."""


def send_row(session: Session, outbox_id: int, config: Mapping[str, Any]) -> bool:
    """Send one row unless it is sent or claimed; True if it went out now."""
    now = utcnow()
    claimed = session.execute(
        update(Outbox)
        .where(
            Outbox.id == outbox_id,
            Outbox.status == OutboxStatus.PENDING,
            or_(Outbox.claimed_until.is_(None), Outbox.claimed_until < now),
        )
        .values(claimed_until=now + timedelta(seconds=CLAIM_SECONDS), attempts=Outbox.attempts + 1)
    )
    session.commit()
    if claimed.rowcount == 0:
        return False
    row = session.get_one(Outbox, outbox_id)
    try:
        deliver(compose(session, row, config), config, name=f"{now:%Y%m%d-%H%M%S}-{row.id}")
    except (OSError, smtplib.SMTPException) as exc:
        row.claimed_until, row.last_error = None, f"{type(exc).__name__}: {exc}"
        session.commit()
        raise Transient(row.last_error) from exc
    except PermanentFailure as exc:
        _finish(session, row, OutboxStatus.FAILED, str(exc))
        log.error("outbox %s (%s) refused for good: %s", row.id, row.kind, exc)
        return False
    _finish(session, row, OutboxStatus.SENT, None)
    return True


def _finish(session: Session, row: Outbox, status: str, error: str | None) -> None:
    row.status, row.last_error, row.claimed_until = status, error, None
    row.sent_at = utcnow() if status == OutboxStatus.SENT else None
    session.commit()


def retry_wait(retries: int) -> int:
    """1, 2, 4 ... seconds, at most a minute: short next to the broker's visibility timeout."""
    return min(2**retries, 60)


def due_rows(session: Session, older_than_seconds: int) -> list[int]:
    """Pending, unclaimed rows queued before the cut-off: their task gave up or was lost."""
    now = utcnow()
    return list(
        session.scalars(
            select(Outbox.id)
            .where(
                Outbox.status == OutboxStatus.PENDING,
                Outbox.created_at < now - timedelta(seconds=older_than_seconds),
                or_(Outbox.claimed_until.is_(None), Outbox.claimed_until < now),
            )
            .order_by(Outbox.id)
        )
    )


def enqueue(celery: Celery, outbox_ids: Iterable[int]) -> None:
    send_tasks(celery, SEND_MAIL, outbox_ids)


def send_outbox_after_commit(app: Flask) -> None:
    """Every outbox row any part of the app adds is handed to a worker once its
    transaction commits (never before: the worker would not see it)."""
    from sqlalchemy import event

    sessions = app.extensions["pbem.db"].sessionmaker
    celery = app.extensions["celery"]

    @event.listens_for(sessions, "after_flush")
    def _collect(session: Session, _context: object) -> None:
        new = [obj.id for obj in session.new if isinstance(obj, Outbox)]
        if new:
            session.info.setdefault(SESSION_KEY, []).extend(new)

    @event.listens_for(sessions, "after_commit")
    def _send(session: Session) -> None:
        enqueue(celery, session.info.pop(SESSION_KEY, []))

    @event.listens_for(sessions, "after_rollback")
    def _forget(session: Session) -> None:
        session.info.pop(SESSION_KEY, None)
