"""Celery workers and beat in threads of the current process, for
one-machine use (`pbem serve`, `pbem demo`) where no separate worker runs,
and for tests: one worker thread reads the tasks' queue, another the bots'
(PBEM_BOT_QUEUE) and a third the notices' (PBEM_NOTICE_QUEUE), so a person's
turn never waits behind a thinking bot or a slow receiver of a notice.

Everything a worker does with its broker connection happens in its own
thread, since Redis connections are not shared safely between threads:
- the solo pool runs tasks in that thread (the threads pool acknowledges
  tasks from its own threads, and replies crossed: a worker died of
  "'int' object has no attribute 'rsplit'");
- no event loop: Celery's is one hub per process, which two workers in one
  process (tests run the server's and the mail's) would share; the plain
  loop drains the worker's own connection;
- stopping only asks the loop to end, and the worker shuts itself down
  in its own thread (a shutdown from outside read its connection at the
  same time as the loop and hung);
- the thread's current Celery app is the worker's own, and so is its
  timer thread's, which runs the tasks held for later (retries): with
  several apps in one process its tasks still run in its app (and
  database), not in the app made last.

Unlike Celery's own test worker it stops only itself (that one stops by a
process-wide flag, ending every other worker thread in the process), and a
worker that dies of a broker error is started again instead of leaving
submissions waiting forever.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from celery import Celery
from celery.beat import EmbeddedService
from celery.bootsteps import CLOSE  # type: ignore[attr-defined]  # celery-types omits CLOSE
from celery.utils.timer2 import Timer
from flask import Flask

from worker.celery_app import queue_celery

log = logging.getLogger(__name__)
RESTART_PAUSE_SECONDS = 0.5
STOP_SECONDS = 30.0


@contextmanager
def worker_threads(app: Flask) -> Iterator[None]:
    """A worker thread for the tasks' queue and one, each of its own Celery
    app, for the bots' and the notices'; stopped together, so a shutdown
    waits out one worker's loop, not each in turn."""
    bots, notices = app.config["PBEM_BOT_QUEUE"], app.config["PBEM_NOTICE_QUEUE"]
    with running(
        WorkerThread(app.extensions["celery"], app.config["PBEM_TASK_QUEUE"]),
        WorkerThread(queue_celery(app, bots), bots, "pbem-bots"),
        WorkerThread(queue_celery(app, notices), notices, "pbem-notices"),
    ):
        yield


@contextmanager
def worker_thread(celery_app: Celery, queue: str, name: str = "pbem-worker") -> Iterator[None]:
    """A worker reading `queue` in a thread of its own."""
    with running(WorkerThread(celery_app, queue, name)):
        yield


@contextmanager
def running(*workers: WorkerThread) -> Iterator[None]:
    """The workers' threads, started, and at the end asked to stop all at
    once and waited for (each loop ends at its next turn, a second or two)."""
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        for worker in workers:
            worker.stopping.set()
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline and any(w.thread.is_alive() for w in workers):
            for worker in workers:
                worker.ask_to_stop()
            for worker in workers:
                worker.thread.join(timeout=0.1)


class WorkerThread:
    """A Celery worker reading one queue in a thread of its own, started
    again if it dies of a broker error."""

    def __init__(self, celery_app: Celery, queue: str, name: str = "pbem-worker") -> None:
        self.celery_app, self.queue = celery_app, queue
        self.stopping = threading.Event()
        self.current: list[object] = []  # the Celery worker of this run of the loop
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def ask_to_stop(self) -> None:
        for worker in self.current:
            _ask_to_stop(worker)

    def _run(self) -> None:
        celery_app = self.celery_app

        class ThreadWorker(celery_app.WorkController):  # type: ignore[name-defined, misc]  # celery-types: a class made per app
            def should_use_eventloop(self) -> bool:
                return False

        class AppTimer(Timer):
            """The timer's thread runs the tasks held for later (a retry's
            countdown): in this worker's app too, not the process's default."""

            def run(self) -> None:
                celery_app.set_current()
                super().run()

        # Tasks are looked up in the thread's current app, which is otherwise
        # the app made last in the process, not necessarily this one.
        celery_app.set_current()
        while not self.stopping.is_set():
            worker = ThreadWorker(
                # A name of its own, so each thread answers a broadcast
                # (pbem.broker_check.queue_readers) under its own.
                hostname=f"{self.thread.name}-{os.getpid()}-{id(self)}@{socket.gethostname()}",
                pool_cls="solo",
                timer_cls=AppTimer,
                queues=[self.queue],
                loglevel="WARNING",
                without_heartbeat=True,
                without_mingle=True,
                without_gossip=True,
            )
            self.current[:] = [worker]
            try:
                worker.start()  # returns when asked to stop, or after an unrecoverable error
            finally:
                worker.stop()
            if not self.stopping.wait(RESTART_PAUSE_SECONDS):
                log.warning("the worker thread stopped unexpectedly; starting it again")


def _ask_to_stop(worker: object) -> None:
    """End the worker's loop at its next turn (at most a couple of seconds);
    asked again until the thread ends, in case the loop was just starting."""
    consumer = getattr(worker, "consumer", None)
    if consumer is not None and consumer.blueprint is not None:
        consumer.blueprint.state = CLOSE


@contextmanager
def beat_thread(celery_app: Celery, schedule: Path) -> Iterator[None]:
    """The periodic sweeps that hand on work a crash left behind."""
    schedule.parent.mkdir(parents=True, exist_ok=True)
    beat = EmbeddedService(celery_app, thread=True, schedule_filename=str(schedule))
    beat.start()  # type: ignore[union-attr]  # celery-types: its _Process has no start
    try:
        yield
    finally:
        beat.stop()
