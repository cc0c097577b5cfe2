"""`pbem serve`, the README's run command, as a real process on its embedded
default: it serves pages, and its own beat hands on a submission whose task
message was lost, so its own worker judges it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from pbem import create_app
from pbem.models import Submission, SubmissionStatus
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import stored_first_tile


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def embedded_env(instance: Path, **settings: str) -> dict[str, str]:
    """The environment of a `pbem` command on its embedded default in `instance`."""
    env = {**os.environ, "PBEM_INSTANCE_PATH": str(instance), **settings}
    for name in ("PBEM_ENV", "PBEM_DATABASE_URL", "PBEM_BROKER_URL", "PBEM_BROKER_FOLDER"):
        env.pop(name, None)
    return env


def started_server(instance: Path, **settings: str) -> tuple[subprocess.Popen[str], int]:
    """`pbem serve` on its embedded default in `instance`, answering; and its port."""
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "pbem"), "serve", "--bind", f"127.0.0.1:{port}"],
        env=embedded_env(instance, **settings),
        # Started as a shell starts a background job (and as some test runners'
        # workers start children): with Ctrl-C ignored. An administrator's
        # `kill -INT` must still stop it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/"), 60, "the site to answer")
    except BaseException:
        server.kill()
        raise
    return server, port


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


def stopped(server: subprocess.Popen[str], how: signal.Signals) -> str:
    """Stop the server as an administrator would; its output. A server that
    does not stop prints every thread's stack (SIGUSR1) for the failure."""
    server.send_signal(how)
    try:
        return server.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        server.send_signal(signal.SIGUSR1)
        time.sleep(3)  # for the stacks to be written
        server.kill()
        output = server.communicate()[0]
        pytest.fail(f"the server did not stop on {how.name}; its output ends:\n{output[-8000:]}")
