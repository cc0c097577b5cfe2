"""Liveness and readiness: /healthz, /readyz and `pbem check`."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from flask import Flask

from pbem import create_app, migrate
from pbem.broker_check import queue_readers
from pbem.cli import main
from pbem.config import QUEUE_SETTINGS
from pbem.db import get_db
from pbem.task_names import SEND_MAILS
from tests.mail.servers import free_port, silent_port
from tests.server.conftest import app_of_its_own, wait_for
from tests.services import REDIS_URL
from worker.embedded import worker_threads


def app_on(tmp_path: Path, broker_url: str, migrated: bool = True) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "PBEM_BROKER_URL": broker_url,
        }
    )
    if migrated:
        with app.app_context():
            migrate.upgrade(get_db().engine)
    return app


def test_a_serving_app_is_alive_and_ready(app):
    client = app.test_client()
    alive = client.get("/healthz")
    assert (alive.status_code, alive.get_json()) == (200, {"status": "alive"})
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json() == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "ok", "broker": "ok", "queues": "ok"},
    }


def test_a_database_behind_the_code_is_not_ready_and_pbem_check_says_why(tmp_path):
    app = app_on(tmp_path, REDIS_URL, migrated=False)
    ready = app.test_client().get("/readyz")
    assert ready.status_code == 503
    checks = ready.get_json()["checks"]
    assert checks["migrations"].startswith("database at no revision, code at ")
    assert checks["migrations"].endswith("run pbem db upgrade")
    assert (checks["database"], checks["broker"]) == ("ok", "ok")
    checked = app.test_cli_runner().invoke(main, ["check"])
    assert checked.exit_code == 1 and '"status": "not ready"' in checked.output
    assert app.test_client().get("/healthz").status_code == 200  # alive all the same


def test_a_broker_that_refuses_makes_the_app_not_ready(tmp_path):
    app = app_on(tmp_path, f"redis://127.0.0.1:{free_port()}/0")
    ready = app.test_client().get("/readyz")
    assert ready.status_code == 503
    checks = ready.get_json()["checks"]
    assert checks["database"] == "ok"
    assert checks["broker"].startswith("error: ") and ":" not in checks["broker"][7:]  # no detail
    checked = app.test_cli_runner().invoke(main, ["check"])
    assert checked.exit_code == 1 and "127.0.0.1" in checked.output  # the administrator's


def test_a_broker_that_never_answers_is_reported_within_seconds(tmp_path):
    """Not after the system's connect timeout (135 s here): a probe waits
    for its answer, and an administrator for `pbem check`."""
    with silent_port() as port:
        app = app_on(tmp_path, f"redis://127.0.0.1:{port}/0")
        started = time.monotonic()
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 503
        assert ready.get_json()["checks"]["broker"].startswith("error: ")
        assert time.monotonic() - started < 30


def test_pbem_check_passes_on_a_ready_embedded_installation(tmp_path):
    app = app_on(tmp_path, "filesystem://localhost/")
    checked = app.test_cli_runner().invoke(main, ["check"])
    assert checked.exit_code == 0, checked.output
    assert '"status": "ready"' in checked.output


def test_work_that_no_worker_reads_fails_pbem_check_but_not_readyz(tmp_path):
    """An installation without its notices' or bots' worker (made before
    those queues existed) looked well while its mail piled up unsent."""
    with app_of_its_own(tmp_path) as app:
        celery, notices = app.extensions["celery"], app.config["PBEM_NOTICE_QUEUE"]
        celery.send_task(SEND_MAILS, args=[[]])  # routed to the notices' queue
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 200  # this process serves on
        warning = ready.get_json()["checks"]["queues"]
        assert warning == (
            f"warning: 1 tasks wait on {notices} and no worker reads it:"
            " start pbem worker --notices"
        )
        checked = app.test_cli_runner().invoke(main, ["check"])
        assert checked.exit_code == 1 and "pbem worker --notices" in checked.output
        with worker_threads(app):
            ours = {app.config[name] for name in QUEUE_SETTINGS}
            wait_for(lambda: ours <= set(queue_readers(celery) or ()), what="each queue's reader")
            wait_for(lambda: app.test_cli_runner().invoke(main, ["check"]).exit_code == 0)


def test_readiness_writes_no_log_line_when_ready(app, caplog):
    """Two of Alembic's INFO lines came with every /readyz, every few seconds."""
    caplog.set_level(logging.INFO)
    assert app.test_client().get("/readyz").status_code == 200
    assert [r.getMessage() for r in caplog.records if r.name.startswith("alembic")] == []
