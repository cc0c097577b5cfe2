"""A Celery worker and beat in threads of the current process, for
one-machine use (`pbem serve`, `pbem demo`) where no separate worker runs,
and for tests.

Unlike Celery's own test worker it stops only itself (that one stops by a
process-wide flag, ending every other worker thread in the process), and a
worker that dies of a broker error is started again instead of leaving
submissions waiting forever.

It runs Celery's solo pool: tasks run in the thread that reads the broker.
The threads pool acknowledges tasks from its own threads on the consumer's
Redis connection, and their replies can cross (seen as a worker dying of
"'int' object has no attribute 'rsplit'").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from celery import Celery
from celery.beat import EmbeddedService

log = logging.getLogger(__name__)
RESTART_PAUSE_SECONDS = 0.5


@contextmanager
def worker_thread(celery_app: Celery) -> Iterator[None]:
    stopping = threading.Event()
    running: list = []

    def run() -> None:
        while not stopping.is_set():
            worker = celery_app.WorkController(
                pool_cls="solo",
                concurrency=1,
                loglevel="WARNING",
                without_heartbeat=True,
                without_mingle=True,
                without_gossip=True,
            )
            running[:] = [worker]
            worker.start()  # returns when stopped, or after an unrecoverable error
            if not stopping.wait(RESTART_PAUSE_SECONDS):
                log.warning("the worker thread stopped unexpectedly; starting it again")

    thread = threading.Thread(target=run, name="pbem-worker", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stopping.set()
        for worker in running:
            worker.stop()
        thread.join(timeout=30)


@contextmanager
def beat_thread(celery_app: Celery, schedule: Path) -> Iterator[None]:
    """The periodic sweeps that hand on work a crash left behind."""
    schedule.parent.mkdir(parents=True, exist_ok=True)
    beat = EmbeddedService(celery_app, thread=True, schedule_filename=str(schedule))
    beat.start()
    try:
        yield
    finally:
        beat.stop()
