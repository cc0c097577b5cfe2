"""Worker threads in one process (as `pbem serve` and the tests run them):
each keeps to its own broker connection, and stopping one, again and again,
neither hangs nor disturbs the other."""

from __future__ import annotations

import time

from flask import Flask

from pbem import create_app, migrate
from pbem.models import Submission, SubmissionStatus
from tests.server.conftest import REDIS_URL, forget_queues, own_queues, wait_for
from tests.server.pipeline_helpers import hand_on, stored_first_tile
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
