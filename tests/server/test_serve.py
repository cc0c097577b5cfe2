"""`pbem serve`, the README's run command, as a real process on its embedded
default: it serves pages, and its own beat hands on a submission whose task
message was lost, so its own worker judges it."""

from __future__ import annotations

import signal

import pytest

from pbem import create_app
from pbem.models import Submission, SubmissionStatus
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import stored_first_tile
from tests.server.server_processes import started_server, stopped

pytestmark = pytest.mark.system  # starts the `pbem serve` process


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_runs_pages_worker_and_beat(tmp_path, monkeypatch, stop):
    server, port = started_server(
        tmp_path, PBEM_SWEEP_SECONDS="1", PBEM_STALE_SUBMISSION_SECONDS="1"
    )
    try:
        monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
        app = create_app({"SECRET_KEY": "test"})
        database = app.extensions["pbem.db"]
        with database.session() as session:
            # Stored but never handed to a worker, as if the task message was lost.
            submission_id = stored_first_tile(session).id
            session.commit()

            def judged() -> bool:
                session.expire_all()
                return session.get(Submission, submission_id).status != SubmissionStatus.PENDING

            wait_for(judged, 60, "the beat to hand the submission on")
            assert session.get(Submission, submission_id).status == SubmissionStatus.ACCEPTED
        database.dispose()
    finally:
        output = stopped(server, stop)
    assert f"pbem is running: open http://127.0.0.1:{port}/" in output, output
    assert server.returncode == 0, output
