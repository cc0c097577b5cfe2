"""One look at the broker, for the checks that report on it (readiness,
`pbem check`, the metrics' queue depths and readers): they answer now, whatever the
broker does. One try, waiting at most BROKER_WAIT_SECONDS for an answer:
kombu's retries slept 2 s before a second try (a refused port took 2 s to
report), and Redis's client waits for the system's connect timeout unless
told (a broker that never answered held a check for 135 s)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

# How long a connection to the broker may take to be answered: here, and for
# every connection of the app to a Redis broker (worker.celery_app).
BROKER_WAIT_SECONDS = 2
# Redis's client's options for that: the connection, and each answer.
REDIS_WAITS = {"socket_connect_timeout": BROKER_WAIT_SECONDS, "socket_timeout": BROKER_WAIT_SECONDS}
# How long the workers are given to say which queues they read.
READERS_WAIT_SECONDS = 1.0


def is_redis(url: str) -> bool:
    return url.startswith(("redis://", "rediss://"))


@contextmanager
def checked_broker(celery: Any, *, reading: bool = False) -> Iterator[Any]:
    """A connection made at once, or the transport's error; `reading` for one
    that reads queues (a broker may have a URL for reading of its own)."""
    connect = celery.connection_for_read if reading else celery.connection_for_write
    waits = dict(REDIS_WAITS)  # a copy: the transport may keep and change it
    with connect(connect_timeout=BROKER_WAIT_SECONDS, transport_options=waits) as connection:
        connection.ensure_connection(max_retries=0)
        yield connection


def queue_depths(celery: Any, queues: Iterable[str]) -> dict[str, int]:
    """Messages waiting in each queue, not those a worker holds. Declaring a
    queue is what the workers do too; it changes nothing that exists."""
    with checked_broker(celery, reading=True) as connection:
        channel = connection.default_channel
        return {queue: int(channel.queue_declare(queue=queue).message_count) for queue in queues}


def queue_readers(celery: Any) -> Counter[str] | None:
    """How many running workers read each queue, as they answer a broadcast
    within READERS_WAIT_SECONDS; None where the broker cannot broadcast (the
    embedded default's folder queue, whose workers are threads of the one
    process anyway)."""
    if not is_redis(str(celery.conf.broker_url)):
        return None
    answers = celery.control.inspect(timeout=READERS_WAIT_SECONDS).active_queues() or {}
    return Counter(queue["name"] for queues in answers.values() for queue in queues)


def unread_queues(celery: Any, depths: dict[str, int]) -> dict[str, int]:
    """Of the queues with work waiting (`depths`), those no running worker
    reads, with what waits there: a bots' or notices' worker never started
    leaves its queue growing while everything else looks well. Workers are
    asked only when some work waits (their answers take a second)."""
    waiting = {queue: count for queue, count in depths.items() if count}
    if not waiting:
        return {}
    readers = queue_readers(celery)
    if readers is None:
        return {}
    return {queue: count for queue, count in waiting.items() if not readers[queue]}
