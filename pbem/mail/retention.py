"""Forgetting mail nobody needs any more.

Outbox rows: mail sent or failed PBEM_OUTBOX_KEEP_DAYS ago, and sign-in mail
(which carries a sign-in link) PBEM_SIGN_IN_KEEP_DAYS ago once its link has
expired too. Rows still to be sent (pending, or sending under a lease) are
never deleted, whatever their age. Inbound mail: the raw bytes of mail read
and received PBEM_MAIL_KEEP_DAYS ago; the row stays (its Message-ID still
stops a resent copy), with its outcome.

Rows go BATCH_SIZE to a transaction, so a long backlog (a first sweep after
years, or after a setting was lowered) never holds one long transaction and
its locks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Delete, Update, and_, delete, or_, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql.elements import ColumnElement

from pbem.db import rows_changed
from pbem.models import InboundMessage, InboundStatus, Outbox, OutboxStatus
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
    condition = or_(old_mail, old_sign_in)
    return _in_batches(
        session, Outbox.id, condition, lambda ids: delete(Outbox).where(Outbox.id.in_(ids))
    )


def forget_inbound_raw(session: Session, received_before: datetime) -> int:
    """Drop the bytes of mail read and received before the date; how many.
    Commits each batch."""
    condition = and_(
        InboundMessage.status == InboundStatus.DONE,
        InboundMessage.received_at < received_before,
        InboundMessage.raw.is_not(None),
    )
    return _in_batches(
        session,
        InboundMessage.id,
        condition,
        lambda ids: update(InboundMessage).where(InboundMessage.id.in_(ids)).values(raw=None),
    )


def _finished_before(cutoff: datetime) -> ColumnElement[bool]:
    """Sent before the cutoff, or failed or dropped and queued before it (no time of
    failure is kept; a row fails within PBEM_MAIL_MAX_ATTEMPTS tries of
    being queued). A row is sent after it is queued, so `created_at` bounds
    both and lets the (status, created_at) index find them."""
    return and_(
        Outbox.status.in_((OutboxStatus.SENT, OutboxStatus.FAILED, OutboxStatus.DROPPED)),
        Outbox.created_at < cutoff,
        or_(Outbox.status != OutboxStatus.SENT, Outbox.sent_at < cutoff),
    )


def _in_batches(
    session: Session,
    key: InstrumentedAttribute[int],
    condition: ColumnElement[bool],
    change: Callable[[list[int]], Delete | Update],
) -> int:
    """Apply `change` to the rows meeting `condition`, lowest ids first, one
    transaction per BATCH_SIZE rows; how many. The condition is checked again
    in each statement, so a row changed meanwhile (a mail being sent again)
    is left alone."""
    done = 0
    while True:
        ids = list(session.scalars(select(key).where(condition).order_by(key).limit(BATCH_SIZE)))
        if not ids:
            return done
        statement = change(ids).where(condition)
        done += rows_changed(
            session.execute(statement.execution_options(synchronize_session=False))
        )
        session.commit()
        if len(ids) < BATCH_SIZE:
            return done
