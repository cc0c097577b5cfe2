"""Deleting outbox rows nobody needs any more: mail sent or failed
PBEM_OUTBOX_KEEP_DAYS ago, and sign-in mail (which carries a sign-in link)
PBEM_SIGN_IN_KEEP_DAYS ago once its link has expired too. Rows still to be
sent (pending, or sending under a lease) are never deleted, whatever their age.

Rows go BATCH_SIZE to a transaction, so a long backlog (a first sweep after
years, or after the setting was lowered) never holds one long transaction
and its locks.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from pbem.models import Outbox, OutboxStatus
from pbem.services.notifications import SIGN_IN

BATCH_SIZE = 1000


def forget_outbox(session: Session, config: Mapping[str, Any], now: datetime) -> int:
    """Delete the outbox rows kept long enough; how many. Commits each batch."""
    days = timedelta(days=1)
    old_mail = and_(
        Outbox.kind != SIGN_IN, _finished_before(now - config["PBEM_OUTBOX_KEEP_DAYS"] * days)
    )
    old_sign_in = and_(
        Outbox.kind == SIGN_IN,
        _finished_before(now - config["PBEM_SIGN_IN_KEEP_DAYS"] * days),
        Outbox.created_at < now - timedelta(minutes=config["PBEM_SIGN_IN_LINK_MINUTES"]),
    )
    return _delete_in_batches(session, or_(old_mail, old_sign_in))


def _finished_before(cutoff: datetime) -> ColumnElement[bool]:
    """Sent before the cutoff, or failed and queued before it (no time of
    failure is kept; a row fails within PBEM_MAIL_MAX_ATTEMPTS tries of
    being queued). A row is sent after it is queued, so `created_at` bounds
    both and lets the (status, created_at) index find them."""
    return and_(
        Outbox.status.in_((OutboxStatus.SENT, OutboxStatus.FAILED)),
        Outbox.created_at < cutoff,
        or_(Outbox.status == OutboxStatus.FAILED, Outbox.sent_at < cutoff),
    )


def _delete_in_batches(session: Session, condition: ColumnElement[bool]) -> int:
    """Delete the outbox rows meeting `condition`, lowest ids first, one
    transaction per BATCH_SIZE rows; how many."""
    deleted = 0
    while True:
        ids = list(
            session.scalars(
                select(Outbox.id).where(condition).order_by(Outbox.id).limit(BATCH_SIZE)
            )
        )
        if not ids:
            return deleted
        deleted += session.execute(
            delete(Outbox)
            .where(Outbox.id.in_(ids), condition)
            .execution_options(synchronize_session=False)
        ).rowcount
        session.commit()
        if len(ids) < BATCH_SIZE:
            return deleted
