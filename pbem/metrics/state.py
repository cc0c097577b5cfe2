"""What is waiting, read from the database and the broker when `/metrics` is
scraped, so every web host tells the same whichever machine did the work.

Each query reads rows through an index on their status (the waiting rows
only) or a handful of groups: a scrape stays cheap however many games,
moves and mails an installation keeps.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from flask import Flask
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.broker_check import queue_depths, unread_queues
from pbem.config import QUEUE_SETTINGS
from pbem.models import (
    Game,
    GameStatus,
    InboundMessage,
    InboundStatus,
    Outbox,
    OutboxStatus,
    Submission,
    SubmissionStatus,
    utcnow,
)

log = logging.getLogger(__name__)


class StateCollector(Collector):
    """Gauges of one app's database and broker, computed at each collect()."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def collect(self) -> Iterator[GaugeMetricFamily]:
        database_up = GaugeMetricFamily(
            "pbem_database_up", "1 when the database answered this scrape's queries, else 0"
        )
        try:
            with self.app.extensions["pbem.db"].session() as session:
                found = list(_database_gauges(session, utcnow()))
        except Exception:  # the scrape still answers, saying the database did not
            log.exception("metrics: the database did not answer")
            found = []
        database_up.add_metric([], 1 if found else 0)
        yield database_up
        yield from found
        yield from _broker_gauges(self.app)


def _database_gauges(session: Session, now: datetime) -> Iterator[GaugeMetricFamily]:
    yield from _submissions(session, now)
    yield from _outbox(session, now)
    yield from _inbound(session, now)
    active = GaugeMetricFamily(
        "pbem_active_games", "Games being played (not open, not finished)", labels=["ruleset"]
    )
    for ruleset, count in session.execute(
        select(Game.ruleset, func.count())
        .where(Game.status == GameStatus.ACTIVE)
        .group_by(Game.ruleset)
    ):
        active.add_metric([ruleset], count)
    yield active


def _age(now: datetime, since: datetime | None) -> float:
    return max(0.0, (now - since).total_seconds()) if since is not None else 0.0


def _submissions(session: Session, now: datetime) -> Iterator[GaugeMetricFamily]:
    waiting = GaugeMetricFamily(
        "pbem_submissions_waiting", "Submissions stored and not yet judged", labels=["channel"]
    )
    oldest = GaugeMetricFamily(
        "pbem_submissions_oldest_waiting_seconds",
        "Age of the oldest submission not yet judged (0: none waits)",
    )
    rows = session.execute(
        select(Submission.channel, func.count(), func.min(Submission.created_at))
        .where(Submission.status == SubmissionStatus.PENDING)
        .group_by(Submission.channel)
    )
    yield from _backlog(waiting, oldest, rows, now)


def _outbox(session: Session, now: datetime) -> Iterator[GaugeMetricFamily]:
    backlog = GaugeMetricFamily(
        "pbem_outbox_backlog",
        "Mails not sent yet: pending, sending (leased by a worker), held (recipient's quiet hours)",
        labels=["state"],
    )
    oldest = GaugeMetricFamily(
        "pbem_outbox_oldest_unsent_seconds",
        "How long the longest-waiting mail due now has been due (0: none)",
    )
    held = Outbox.not_before > now
    due_since = func.coalesce(Outbox.not_before, Outbox.created_at)
    counts: dict[str, int] = {"pending": 0, "sending": 0, "held": 0}
    first: datetime | None = None
    for status, is_held, count, since in session.execute(
        select(Outbox.status, held, func.count(), func.min(due_since))
        .where(Outbox.status.in_([OutboxStatus.PENDING, OutboxStatus.SENDING]))
        .group_by(Outbox.status, held)
    ):
        counts["held" if is_held else status] += count
        if not is_held:
            first = since if first is None else min(first, since)
    for state, count in counts.items():
        backlog.add_metric([state], count)
    oldest.add_metric([], _age(now, first))
    failed = GaugeMetricFamily(
        "pbem_outbox_failed",
        "Mails failed for good and still kept (PBEM_OUTBOX_KEEP_DAYS); last_error says why",
    )
    failed.add_metric(
        [],
        session.scalar(
            select(func.count()).select_from(Outbox).where(Outbox.status == OutboxStatus.FAILED)
        )
        or 0,
    )
    yield backlog
    yield oldest
    yield failed


def _inbound(session: Session, now: datetime) -> Iterator[GaugeMetricFamily]:
    waiting = GaugeMetricFamily(
        "pbem_inbound_mail_waiting",
        "Inbound mails stored and not yet read, by the door they came in",
        labels=["door"],
    )
    oldest = GaugeMetricFamily(
        "pbem_inbound_mail_oldest_waiting_seconds",
        "Age of the oldest inbound mail not yet read (0: none)",
    )
    rows = session.execute(
        select(InboundMessage.channel, func.count(), func.min(InboundMessage.received_at))
        .where(InboundMessage.status == InboundStatus.RECEIVED)
        .group_by(InboundMessage.channel)
    )
    yield from _backlog(waiting, oldest, rows, now)


def _backlog(
    waiting: GaugeMetricFamily,
    oldest: GaugeMetricFamily,
    rows: Iterable[Any],
    now: datetime,
) -> Iterator[GaugeMetricFamily]:
    """Rows of (label, count, oldest time) as a count by label and the age
    of the oldest of all."""
    first: datetime | None = None
    for label, count, since in rows:
        waiting.add_metric([label], count)
        first = since if first is None else min(first, since)
    oldest.add_metric([], _age(now, first))
    yield waiting
    yield oldest


def _broker_gauges(app: Flask) -> Iterator[GaugeMetricFamily]:
    depth = GaugeMetricFamily(
        "pbem_queue_depth", "Task messages waiting in the broker for a worker", labels=["queue"]
    )
    up = GaugeMetricFamily("pbem_broker_up", "1 when the broker answered this scrape, else 0")
    unread = GaugeMetricFamily(
        "pbem_queue_unread",
        "1 when work waits in the queue and no running worker reads it, else 0",
        labels=["queue"],
    )
    celery = app.extensions["celery"]
    queues = [app.config[setting] for setting in QUEUE_SETTINGS]
    try:
        depths = queue_depths(celery, queues)
        nobody = unread_queues(celery, depths)
    except Exception:  # kombu raises whatever its transport raises
        log.exception("metrics: the broker did not answer")
        up.add_metric([], 0)
        yield up
        return
    for queue, count in depths.items():
        depth.add_metric([queue], count)
        unread.add_metric([queue], int(queue in nobody))
    up.add_metric([], 1)
    yield up
    yield depth
    yield unread
