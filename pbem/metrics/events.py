"""Counters and the judging histogram, recorded where things happen.

The metric objects are made on first use, not at import: prometheus_client
chooses between one process and multiprocess mode when it is first imported,
and `pbem web` and `pbem worker` choose the mode after importing the app
(pbem.metrics.processes). Labels take only a few known values each, so the
number of series stays small.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

from flask import Flask

from pbem import signals

# The judging of one submission takes milliseconds to a few seconds (a long
# game replayed from its last snapshot, a lock held by another submission).
JUDGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
# Waiting adds the queue: up to PBEM_STALE_SUBMISSION_SECONDS and more when
# the broker or the workers were away.
WAIT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800)


_MAKING = threading.Lock()


def _metrics() -> dict[str, Any]:
    # Locked: two threads (`pbem serve`'s requests and worker) recording at
    # once would otherwise both register the metrics, and the second fails.
    with _MAKING:
        return _made()


@cache
def _made() -> dict[str, Any]:
    from prometheus_client import Counter, Histogram

    return {
        "received": Counter(
            "pbem_submissions_received",
            "Submissions stored, by the channel they came by",
            ["channel"],
        ),
        "judged": Counter(
            "pbem_submissions_judged",
            "Submissions judged, by channel and outcome (accepted, partial, rejected)",
            ["channel", "outcome"],
        ),
        "judge_seconds": Histogram(
            "pbem_judge_seconds",
            "Time to judge one submission, from asking for its game's lock to the commit",
            ["ruleset"],
            buckets=JUDGE_BUCKETS,
        ),
        "waited_seconds": Histogram(
            "pbem_submission_wait_seconds",
            "Time from storing a submission to its judgement: what a player waits",
            ["channel"],
            buckets=WAIT_BUCKETS,
        ),
        "mail_sent": Counter("pbem_mail_sent", "Mails handed to the server, by kind", ["kind"]),
        "mail_failures": Counter(
            "pbem_mail_failures",
            "Mails not sent, by reason: refused, unwritable and attempts_spent for good;"
            " server_down and temporary are tried again",
            ["reason"],
        ),
        "inbound": Counter(
            "pbem_inbound_mail",
            "Inbound mails read, by the door they came in (imap, smtp, lmtp, http) and verdict",
            ["door", "verdict"],
        ),
        "timeouts": Counter(
            "pbem_timeouts",
            "Seats whose time ran out, by what the game does then (bot, forfeit, wait)",
            ["rule"],
        ),
    }


def declare() -> None:
    """Make the metrics, so a scrape lists them before anything happened here."""
    _metrics()


def submission_received(channel: str) -> None:
    _metrics()["received"].labels(channel).inc()


def submission_judged(
    channel: str, outcome: str, ruleset: str, seconds: float, waited: float
) -> None:
    """`seconds` judging it, `waited` since it was stored (the clocks of the
    machines agree closely enough for that)."""
    _metrics()["judged"].labels(channel, outcome).inc()
    _metrics()["judge_seconds"].labels(ruleset).observe(seconds)
    _metrics()["waited_seconds"].labels(channel).observe(max(0.0, waited))


def mail_sent(kind: str) -> None:
    _metrics()["mail_sent"].labels(kind).inc()


def mail_failed(reason: str, count: int = 1) -> None:
    if count:
        _metrics()["mail_failures"].labels(reason).inc(count)


def inbound_read(door: str, verdict: str) -> None:
    _metrics()["inbound"].labels(door, verdict).inc()


def timed_out(rule: str) -> None:
    _metrics()["timeouts"].labels(rule).inc()


def init_app(_app: Flask) -> None:
    """Count what the services announce (pbem.signals), once it is committed."""
    signals.submission_stored.connect(_stored)
    signals.timed_out.connect(_timed_out)


def _stored(_app: Flask, channel: str, **_about: object) -> None:
    submission_received(channel)


def _timed_out(_app: Flask, rule: str, **_about: object) -> None:
    timed_out(rule)
