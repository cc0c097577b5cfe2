"""Sending the outbox: one Celery task per batch of rows (those one commit
queued, or up to pbem.dispatch.BATCHES the sweep hands on), handed on once the
rows are committed (pbem.services.notifications.queue_notice). A batch
replays each of its games once, draws each distinct board once and sends
through one SMTP connection; everything below holds for each row of it on
its own.

A row is marked "sending" with a lease before it is handed to SMTP, so two
workers never send it at once; a server that is down makes the task retry
with growing waits, and once those retries are spent the row goes back to
pending and the beat sweep hands it on again after PBEM_MAIL_RETRY_SECONDS.
A row queued in its recipient's quiet hours waits for their end
(pbem.mail.quiet_hours), and the same sweep hands it on then, one mail per
game about where it stands: the copies it stands for are dropped.
A row whose worker died while sending is handed on once its lease runs out,
with the Message-ID it was first written with, so a copy that did go out
before the death is a duplicate that mail clients recognise (SMTP itself
cannot be made exactly-once; see docs/durability.md).

A mail that cannot be written at all fails at once with the reason; any row
tried PBEM_MAIL_MAX_ATTEMPTS times fails with its last error: neither blocks
the outbox or is retried for ever. Nor does either stop the rest of its batch;
a row the server refuses for now is tried again with the task's retry, and a
server found down leaves that row and the rest of the batch to the retry
while the rows sent before stay sent.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

from celery import Celery
from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from pbem.db import rows_changed
from pbem.dispatch import BATCHES, send_batches
from pbem.logs import bind, log_context
from pbem.mail.compose import compose
from pbem.mail.game_views import GameViews
from pbem.mail.quiet_hours import Stale, fold_released
from pbem.mail.transport import Outgoing, PermanentFailure, ServerDown
from pbem.metrics import events
from pbem.models import Outbox, OutboxStatus, utcnow
from pbem.task_names import SEND_MAILS

log = logging.getLogger(__name__)

LEASE_SECONDS = 120


class Transient(Exception):
    """Some rows of a batch could not be sent for now; the task retries `unsent`."""

    def __init__(self, unsent: list[int], reason: str) -> None:
        super().__init__(reason)
        self.unsent = unsent


def _free(now: Any) -> ColumnElement[bool]:
    """Rows a sender may take: pending, or 'sending' by a worker whose lease ran
    out; either only once its recipient's quiet hours are over (`not_before`)."""
    return and_(
        or_(
            Outbox.status == OutboxStatus.PENDING,
            and_(Outbox.status == OutboxStatus.SENDING, Outbox.claimed_until < now),
        ),
        or_(Outbox.not_before.is_(None), Outbox.not_before <= now),
    )


def send_rows(session: Session, outbox_ids: Sequence[int], config: Mapping[str, Any]) -> int:
    """Send each row unless it is sent, failed or leased; how many went out now.
    Raises Transient with the rows to try again: those refused for now, and
    every row from the one that found the server down."""
    views = GameViews()
    unsent: list[int] = []
    reason = ""
    with Outgoing(config) as outgoing:
        sent = 0
        for index, outbox_id in enumerate(outbox_ids):
            try:
                with log_context(outbox=outbox_id):
                    sent += _send_row(session, outbox_id, config, views, outgoing)
            except ServerDown as exc:
                raise Transient([*unsent, *outbox_ids[index:]], str(exc)) from exc
            except OSError as exc:  # this row's alone: the others go on
                unsent.append(outbox_id)
                reason = _error(exc)
    if unsent:
        raise Transient(unsent, reason)
    return sent


def _send_row(
    session: Session,
    outbox_id: int,
    config: Mapping[str, Any],
    views: GameViews,
    outgoing: Outgoing,
) -> bool:
    row = claim(session, outbox_id, config["PBEM_MAIL_MAX_ATTEMPTS"])
    if row is None:
        return False
    bind(game=row.game_id and views.game(session, row.game_id).public_id)
    message = written(session, row, config, views)
    if message is None:
        return False
    session.commit()  # nothing is held open in the database while the SMTP server talks
    try:
        outgoing.send(message, name=f"{utcnow():%Y%m%d-%H%M%S}-{row.id}")
    except PermanentFailure as exc:
        fail(session, row, str(exc), reason="refused")
        return False
    except (ServerDown, OSError) as exc:
        _release(session, row, _error(exc))
        events.mail_failed("server_down" if isinstance(exc, ServerDown) else "temporary")
        raise
    _finish(session, row, OutboxStatus.SENT, None)
    events.mail_sent(row.kind)
    log.info("outbox %s (%s) sent", row.id, row.kind)
    return True


def _error(exc: Exception) -> str:
    return str(exc) if isinstance(exc, ServerDown) else f"{type(exc).__name__}: {exc}"


def claim(session: Session, outbox_id: int, max_attempts: int) -> Outbox | None:
    """Mark the row 'sending' under a lease, counting the attempt; None if it is
    not free. A free row that has had all its attempts fails instead."""
    now = utcnow()
    claimed = session.scalars(
        update(Outbox)
        .where(Outbox.id == outbox_id, _free(now), Outbox.attempts < max_attempts)
        .values(
            status=OutboxStatus.SENDING,
            claimed_until=now + timedelta(seconds=LEASE_SECONDS),
            attempts=Outbox.attempts + 1,
        )
        .returning(Outbox)  # the row as the update left it, in the same statement
        .execution_options(synchronize_session=False, populate_existing=True)
    ).one_or_none()
    session.commit()
    if claimed is None:
        give_up(session, max_attempts, [outbox_id])
    return claimed


def written(
    session: Session, row: Outbox, config: Mapping[str, Any], views: GameViews
) -> EmailMessage | None:
    """The row's mail, carrying the Message-ID stored with the row the first
    time it was written; None (and the row failed) if it cannot be written."""
    try:
        message = compose(session, row, config, views)
    except Stale as exc:
        _finish(session, row, OutboxStatus.DROPPED, str(exc))
        return None
    except SQLAlchemyError:
        raise  # the database's fault, not the mail's: the lease runs out, the row is tried again
    except Exception as exc:  # any fault in writing the mail is this row's alone
        error = f"the mail could not be written: {type(exc).__name__}: {exc}"
        fail(session, row, error, reason="unwritable")
        return None
    if row.message_id is None:
        row.message_id = str(message["Message-ID"])
        session.commit()  # kept before SMTP sees it, so every resend carries it
    else:
        message.replace_header("Message-ID", row.message_id)
    return message


def fail(session: Session, row: Outbox, error: str, reason: str) -> None:
    """`reason`: the kind of failure, a label of pbem_mail_failures_total."""
    _finish(session, row, OutboxStatus.FAILED, error)
    events.mail_failed(reason)
    log.error("outbox %s (%s) failed for good: %s", row.id, row.kind, error)


def _release(session: Session, row: Outbox, error: str) -> None:
    """Back to pending for a later attempt."""
    session.rollback()
    row.status, row.claimed_until, row.last_error = OutboxStatus.PENDING, None, error
    session.commit()


def _finish(session: Session, row: Outbox, status: str, error: str | None) -> None:
    row.status, row.last_error, row.claimed_until = status, error, None
    row.sent_at = utcnow() if status == OutboxStatus.SENT else None
    session.commit()


def give_up(session: Session, max_attempts: int, outbox_ids: Iterable[int] | None = None) -> int:
    """Fail the free rows that have had all their attempts, with their last error."""
    now = utcnow()
    spent = select(Outbox.id, Outbox.attempts, Outbox.last_error).where(
        _free(now), Outbox.attempts >= max_attempts
    )
    if outbox_ids is not None:
        spent = spent.where(Outbox.id.in_(list(outbox_ids)))
    failed = 0
    for outbox_id, attempts, last_error in session.execute(spent).all():
        failed += rows_changed(
            session.execute(
                update(Outbox)
                .where(Outbox.id == outbox_id, _free(now))  # unless a sender finished it meanwhile
                .values(
                    status=OutboxStatus.FAILED,
                    claimed_until=None,
                    last_error=f"gave up after {attempts} attempts: {last_error}",
                )
                .execution_options(synchronize_session=False)
            )
        )
        log.error(
            "outbox %s failed for good after %s attempts: %s", outbox_id, attempts, last_error
        )
    session.commit()  # expires what the session holds, so callers read the new status
    events.mail_failed("attempts_spent", failed)
    return failed


def retry_wait(retries: int) -> int:
    """1, 2, 4 ... seconds, at most a minute: short next to the broker's visibility timeout."""
    return min(2**retries, 60)


def due_rows(session: Session, older_than_seconds: int, max_attempts: int) -> list[int]:
    """Free rows queued before the cut-off: their task gave up, was lost or its
    worker died, or they waited for the end of quiet hours. Rows out of
    attempts fail here rather than being handed on."""
    give_up(session, max_attempts)
    now = utcnow()
    fold_released(session, now)
    session.commit()
    return list(
        session.scalars(
            select(Outbox.id)
            .where(
                _free(now),
                or_(
                    Outbox.created_at < now - timedelta(seconds=older_than_seconds),
                    Outbox.not_before.is_not(None),  # free, so its quiet hours are over
                ),
            )
            .order_by(Outbox.id)
        )
    )


def enqueue(celery: Celery, outbox_ids: Sequence[int]) -> None:
    send_batches(celery, SEND_MAILS, outbox_ids, BATCHES[SEND_MAILS])
