"""One look at the broker, for the checks that report on it (readiness,
`pbem check`, the metrics' queue depths): they answer now, whatever the
broker does. One try, waiting at most BROKER_WAIT_SECONDS for an answer:
kombu's retries slept 2 s before a second try (a refused port took 2 s to
report), and Redis's client waits for the system's connect timeout unless
told (a broker that never answered held a check for 135 s)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# How long a connection to the broker may take to be answered: here, and for
# every connection of the app to a Redis broker (worker.celery_app).
BROKER_WAIT_SECONDS = 2
# Redis's client's options for that: the connection, and each answer.
REDIS_WAITS = {"socket_connect_timeout": BROKER_WAIT_SECONDS, "socket_timeout": BROKER_WAIT_SECONDS}


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
