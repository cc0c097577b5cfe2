"""The beat's sweep deletes outbox rows kept PBEM_OUTBOX_KEEP_DAYS (sign-in
mail: PBEM_SIGN_IN_KEEP_DAYS, once its link expired), never a row still to
be sent, and a backlog in batches; and the bytes of inbound mail read long
ago, in batches too."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy import select

from pbem.mail import retention
from pbem.models import InboundMessage, InboundStatus, Outbox, OutboxStatus, utcnow
from pbem.services.notifications import SIGN_IN, YOUR_TURN
from pbem.task_names import FORGET_OUTBOX
from tests.server.conftest import drain
from worker.celery_app import beat_schedule

PENDING, SENDING, SENT, FAILED = (
    OutboxStatus.PENDING,
    OutboxStatus.SENDING,
    OutboxStatus.SENT,
    OutboxStatus.FAILED,
)


def add_row(session, user, status: str, age: timedelta, kind: str = YOUR_TURN) -> int:
    """A row queued and (sent) `age` ago; pending rows are held for quiet
    hours and sending ones leased, so no worker touches them meanwhile."""
    now = utcnow()
    row = Outbox(recipient_id=user.id, kind=kind, payload={}, status=status, created_at=now - age)
    if status == SENT:
        row.sent_at = now - age
    if status == PENDING:
        row.not_before = now + timedelta(days=1)
    if status == SENDING:
        row.claimed_until = now + timedelta(hours=1)
    session.add(row)
    session.commit()
    return row.id


def left(session, ids: dict[str, int]) -> set[str]:
    session.rollback()
    found = set(session.scalars(select(Outbox.id).where(Outbox.id.in_(ids.values()))))
    return {name for name, row_id in ids.items() if row_id in found}


def test_the_sweep_deletes_rows_sent_or_failed_longer_ago_than_the_kept_days(
    app, session, make_user, monkeypatch
):
    monkeypatch.setitem(app.config, "PBEM_OUTBOX_KEEP_DAYS", 30)
    monkeypatch.setitem(app.config, "PBEM_SIGN_IN_KEEP_DAYS", 30)
    ann = make_user("Ann")
    days = timedelta(days=1)
    ids = {
        "sent long ago": add_row(session, ann, SENT, 31 * days),
        "sent lately": add_row(session, ann, SENT, 29 * days),
        "failed long ago": add_row(session, ann, FAILED, 31 * days),
        "failed lately": add_row(session, ann, FAILED, 29 * days),
        "pending for ever": add_row(session, ann, PENDING, 400 * days),
        "sending for ever": add_row(session, ann, SENDING, 400 * days),
        "sign-in long ago": add_row(session, ann, SENT, 31 * days, SIGN_IN),
        "sign-in lately": add_row(session, ann, SENT, 29 * days, SIGN_IN),
    }

    app.extensions["celery"].send_task(FORGET_OUTBOX)
    drain(app)

    assert left(session, ids) == {
        "sent lately",
        "failed lately",
        "pending for ever",
        "sending for ever",
        "sign-in lately",
    }


def test_zero_days_deletes_at_the_next_sweep_but_a_sign_in_link_only_once_expired(
    app, session, make_user, monkeypatch
):
    monkeypatch.setitem(app.config, "PBEM_OUTBOX_KEEP_DAYS", 0)
    monkeypatch.setitem(app.config, "PBEM_SIGN_IN_KEEP_DAYS", 0)
    monkeypatch.setitem(app.config, "PBEM_SIGN_IN_LINK_MINUTES", 30)
    ann = make_user("Ann")
    minutes = timedelta(minutes=1)
    ids = {
        "turn just sent": add_row(session, ann, SENT, minutes),
        "turn pending": add_row(session, ann, PENDING, 400 * 24 * 60 * minutes),
        "sign-in link working": add_row(session, ann, SENT, 29 * minutes, SIGN_IN),
        "sign-in link expired": add_row(session, ann, SENT, 31 * minutes, SIGN_IN),
        "sign-in failed, link expired": add_row(session, ann, FAILED, 31 * minutes, SIGN_IN),
    }

    app.extensions["celery"].send_task(FORGET_OUTBOX)
    drain(app)

    assert left(session, ids) == {"turn pending", "sign-in link working"}


def test_a_backlog_goes_in_batches_until_none_is_left(app, session, make_user, monkeypatch):
    monkeypatch.setattr(retention, "BATCH_SIZE", 2)
    ann = make_user("Ann")
    old = {f"old {n}": add_row(session, ann, SENT, timedelta(days=40)) for n in range(5)}
    kept = {"kept": add_row(session, ann, SENT, timedelta(days=20))}
    config = {**app.config, "PBEM_OUTBOX_KEEP_DAYS": 30}

    deleted = retention.forget_outbox(session, config, utcnow())

    assert deleted >= len(old)
    assert left(session, {**old, **kept}) == {"kept"}


def test_the_beat_runs_the_sweep():
    schedule = beat_schedule({"PBEM_SWEEP_SECONDS": 60})
    assert schedule["forget-outbox"] == {"task": FORGET_OUTBOX, "schedule": 60.0}


def test_raw_inbound_mail_is_forgotten_in_batches_keeping_the_rows(app, session, monkeypatch):
    monkeypatch.setattr(retention, "BATCH_SIZE", 2)
    now = utcnow()

    def stored(name: str, status: str, days: int) -> int:
        row = InboundMessage(
            message_id=f"<{name}-{uuid.uuid4().hex}@example.org>",
            raw=b"Subject: hello\r\n\r\nboard\r\n",
            channel="smtp",
            status=status,
            received_at=now - timedelta(days=days),
        )
        session.add(row)
        session.commit()
        return row.id

    old = [stored(f"old{n}", InboundStatus.DONE, 40) for n in range(5)]
    recent = stored("recent", InboundStatus.DONE, 20)
    unread = stored("unread", InboundStatus.RECEIVED, 40)

    forgotten = retention.forget_inbound_raw(session, now - timedelta(days=30))

    assert forgotten == len(old)
    session.expire_all()
    rows = {row.id: row for row in session.scalars(select(InboundMessage))}
    assert all(rows[row_id].raw is None for row_id in old)  # the rows themselves stay
    assert rows[recent].raw is not None and rows[unread].raw is not None
