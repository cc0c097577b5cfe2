"""Worker threads in one process (as `pbem serve` and the tests run them):
each keeps to its own broker connection and its own app, and stopping one,
again and again, neither hangs nor disturbs the other."""

from __future__ import annotations

import time
from typing import Any

from celery.signals import task_prerun
from flask import Flask

from pbem import create_app, migrate
from pbem.models import Submission, SubmissionStatus
from pbem.task_names import REQUEUE_STALE
from tests.server.conftest import forget_queues, own_queues, wait_for
from tests.server.pipeline_helpers import hand_on, stored_first_tile
from tests.services import REDIS_URL
from worker.embedded import worker_thread


def app_on_own_queue(tmp_path, name: str) -> Flask:
    app = create_app(
        {
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / f'{name}.sqlite3'}",
            "PBEM_BROKER_URL": REDIS_URL,
            **own_queues(f"pbem-test-{name}"),
        }
    )
    migrate.upgrade(app.extensions["pbem.db"].engine)
    return app


def first_move_is_judged(app: Flask) -> None:
    database = app.extensions["pbem.db"]
    with database.session() as session:
        submission = stored_first_tile(session)
        session.commit()
        hand_on(app, submission.id)

        def accepted() -> bool:
            session.expire_all()
            return session.get(Submission, submission.id).status == SubmissionStatus.ACCEPTED

        wait_for(accepted, 30, "the move to be accepted")


def test_worker_threads_stop_one_at_a_time(tmp_path):
    steady, restarted = app_on_own_queue(tmp_path, "steady"), app_on_own_queue(tmp_path, "again")
    try:
        with worker_thread(steady.extensions["celery"], steady.config["PBEM_TASK_QUEUE"]):
            for _ in range(3):
                started = time.monotonic()
                with worker_thread(
                    restarted.extensions["celery"], restarted.config["PBEM_TASK_QUEUE"]
                ):
                    first_move_is_judged(restarted)
                    first_move_is_judged(steady)
                assert time.monotonic() - started < 20
            first_move_is_judged(steady)
    finally:
        for app in (steady, restarted):
            app.extensions["pbem.db"].dispose()
            forget_queues(app)


def test_a_task_held_for_later_runs_in_its_workers_app_not_the_app_made_last(tmp_path):
    """A retry waits out its countdown in the worker's timer thread, which
    then runs it: in the worker's own app, though another app was made
    since (and Celery falls back to the app made last)."""
    mine = app_on_own_queue(tmp_path, "mine")
    later = app_on_own_queue(tmp_path, "later")  # Celery's default app now
    ran_in: dict[str, Any] = {}

    def seen(sender: Any = None, task_id: str = "", **_: Any) -> None:
        ran_in[task_id] = sender.app

    task_prerun.connect(seen, weak=False)
    try:
        with worker_thread(mine.extensions["celery"], mine.config["PBEM_TASK_QUEUE"]):
            held = mine.extensions["celery"].send_task(REQUEUE_STALE, countdown=0.3)
            wait_for(lambda: held.id in ran_in, 30, "the task held for later to run")
        assert ran_in[held.id] is mine.extensions["celery"]
    finally:
        task_prerun.disconnect(seen)
        for app in (mine, later):
            app.extensions["pbem.db"].dispose()
            forget_queues(app)
