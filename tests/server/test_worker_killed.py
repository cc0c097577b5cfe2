"""A worker process killed in the middle of a task: the submission is processed
exactly once after the task is redelivered (acks_late + reject_on_worker_lost)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from pbem import create_app, migrate
from pbem.models import Game, Move, Submission, SubmissionStatus
from pbem.task_names import PROCESS_SUBMISSION
from tests.server.conftest import forget_queues, own_queues, wait_for
from tests.server.pipeline_helpers import stored_first_tile
from tests.server.postgres_locks import blocked_by
from tests.services import REDIS_URL

pytestmark = pytest.mark.system  # starts a Celery worker process and kills it


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


def test_submission_survives_its_worker_being_killed(postgres_url, tmp_path):
    settings = {
        "PBEM_SECRET_KEY": "test",
        "PBEM_DATABASE_URL": postgres_url,
        "PBEM_BROKER_URL": REDIS_URL,
        **own_queues("pbem-test-kill"),
        "PBEM_INSTANCE_PATH": str(tmp_path),
    }
    app = create_app(
        {
            key.removeprefix("PBEM_") if key == "PBEM_SECRET_KEY" else key: value
            for key, value in settings.items()
        }
        | {"SECRET_KEY": "test"}
    )
    database = app.extensions["pbem.db"]
    migrate.upgrade(database.engine)
    with database.session() as session:
        submission = stored_first_tile(session)
        session.commit()
        game_id, submission_id = submission.game_id, submission.id

    worker = subprocess.Popen(
        [str(Path(sys.executable).parent / "pbem"), "worker", "--concurrency", "1"],
        env={**os.environ, **settings},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    holder = database.engine.connect()
    try:
        # Hold the game's row lock, so the task blocks inside the pipeline.
        holder.execute(select(Game.id).where(Game.id == game_id).with_for_update())
        app.extensions["celery"].send_task(PROCESS_SUBMISSION, args=[submission_id])
        holder_pid = holder.scalar(text("SELECT pg_backend_pid()"))
        first = wait_for(lambda: blocked_by(database.engine, holder_pid), 60, "the task to block")
        (child,) = children(worker.pid)
        os.kill(child, signal.SIGKILL)
        # The parent starts a new child, which gets the redelivered task. The
        # killed child's database session may still wait beside it.
        wait_for(lambda: children(worker.pid) not in ([], [child]), 30, "a new child")
        wait_for(lambda: blocked_by(database.engine, holder_pid) - first, 30, "the task again")
        holder.rollback()
        with database.session() as session:

            def accepted() -> bool:
                session.expire_all()
                return session.get(Submission, submission_id).status == SubmissionStatus.ACCEPTED

            wait_for(accepted, 30, "the submission to be accepted")
            moves = session.scalar(
                select(func.count()).select_from(Move).where(Move.game_id == game_id)
            )
            assert moves == 1
    finally:
        holder.close()
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=30)
        database.dispose()
        forget_queues(app)
    assert "WorkerLostError" in output, output
