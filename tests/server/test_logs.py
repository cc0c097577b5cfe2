"""Logs: with PBEM_LOG_FORMAT=json each line is a JSON object carrying what
was being worked on (the web request, the task, the game, the submission, the
outbox row); text lines stay as they always were; with PBEM_SENTRY_DSN set,
errors reach Sentry."""

from __future__ import annotations

import gzip
import io
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import select

from pbem.logs import JsonFormatter
from pbem.models import Outbox
from pbem.services.replay import engine_game
from pbem.task_names import PROCESS_SUBMISSION, PRUNE_PICTURES, SEND_MAILS
from tests.server.conftest import wait_for
from tests.server.csrf_browser import Browser
from tests.server.pipeline_helpers import first_legal, judged, send, start_game

Lines = Callable[[], list[dict]]

# A process that sets pbem up and logs one error with its traceback.
LOG_AN_ERROR = """
import logging
from pbem import create_app
create_app({"SECRET_KEY": "test", "PBEM_DATABASE_URL": "sqlite://"})
try:
    raise ValueError("the cause")
except ValueError:
    logging.getLogger("pbem.test").exception("it broke")
"""


@pytest.fixture
def json_lines() -> Iterator[Lines]:
    """What this process logs from now on (all threads), as JSON lines, parsed."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def logged(lines: Lines, message: str) -> dict:
    found = wait_for(lambda: [line for line in lines() if line["message"] == message], 30, message)
    return found[0]


def test_a_web_request_logs_under_its_id_and_sends_it_back(app, make_user, json_lines):
    user, browser = make_user("Ann"), Browser(app.test_client())
    given = {"X-Request-ID": "proxy-7f3a.1"}
    response = browser.post("/sign-in", data={"email": user.email}, headers=given)
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == "proxy-7f3a.1"
    line = next(line for line in json_lines() if user.email in line["message"])
    assert (line["level"], line["logger"], line["request"]) == (
        "INFO",
        "pbem.web.auth",
        given["X-Request-ID"],
    )

    made_up = browser.get("/healthz", headers={"X-Request-ID": "not a token; <script>"})
    assert len(made_up.headers["X-Request-ID"]) == 32
    assert browser.get("/healthz").headers["X-Request-ID"] != made_up.headers["X-Request-ID"]


def test_worker_lines_name_the_task_submission_game_and_outbox(app, session, make_user, json_lines):
    game = start_game(app, session, "taluva", [make_user("Ann"), make_user("Bob")])
    submission = send(app, session, game, 0, first_legal(engine_game(game), 0))
    assert judged(app, submission.id).status == "accepted"

    judging = logged(json_lines, f"submission {submission.id} accepted")
    assert judging["game"] == game.public_id and judging["submission"] == submission.id
    assert judging["task_name"] == PROCESS_SUBMISSION and judging["task"]
    row = session.scalars(select(Outbox).where(Outbox.game_id == game.id).order_by(Outbox.id))
    first = row.first()
    mail = logged(json_lines, f"outbox {first.id} ({first.kind}) sent")
    assert mail["game"] == game.public_id and mail["outbox"] == first.id
    assert mail["task_name"] == SEND_MAILS and mail["task"] != judging["task"]
    assert "submission" not in mail  # the judging's context ended with it


def test_a_tasks_context_ends_with_it(app, json_lines):
    with app.app_context():
        app.extensions["celery"].tasks[PRUNE_PICTURES].apply()  # in this thread
    logging.getLogger("pbem.test").info("after the task")
    assert "task" not in logged(json_lines, "after the task")


def run_logging_an_error(tmp_path, **settings: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_LOG_LEVEL": "WARNING"}
    env.update({f"PBEM_{name.upper()}": value for name, value in settings.items()})
    return subprocess.run(
        [sys.executable, "-c", LOG_AN_ERROR], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.system
def test_text_lines_are_as_they_were(tmp_path):
    run = run_logging_an_error(tmp_path)
    assert run.stderr.startswith("ERROR:pbem.test:it broke\nTraceback (most recent call last):\n")
    assert run.stderr.endswith("ValueError: the cause\n")


@pytest.mark.system
def test_json_lines_carry_time_level_logger_process_and_exception(tmp_path):
    run = run_logging_an_error(tmp_path, log_format="json")
    (line,) = [json.loads(text) for text in run.stderr.splitlines()]
    assert datetime.fromisoformat(line["time"]).utcoffset() == timedelta(0)
    assert (line["level"], line["logger"], line["message"]) == ("ERROR", "pbem.test", "it broke")
    assert line["exception"].endswith("ValueError: the cause")
    assert isinstance(line["process"], int)


@pytest.mark.system
def test_a_bad_log_format_is_refused(tmp_path):
    run = run_logging_an_error(tmp_path, log_format="xml")
    assert run.returncode != 0
    assert "PBEM_LOG_FORMAT must be one of text, json, not 'xml'" in run.stderr


@pytest.mark.system
def test_errors_reach_sentry(tmp_path):
    received: list[bytes] = []

    class Sentry(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            gzipped = self.headers.get("Content-Encoding") == "gzip"
            received.append(gzip.decompress(body) if gzipped else body)
            self.send_response(200)
            self.end_headers()

    with ThreadingHTTPServer(("127.0.0.1", 0), Sentry) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        dsn = f"http://public@127.0.0.1:{server.server_address[1]}/1"
        run = run_logging_an_error(tmp_path, sentry_dsn=dsn)
        server.shutdown()
    assert run.returncode == 0, run.stderr
    assert any(b"it broke" in body and b"the cause" in body for body in received)


@pytest.mark.system
def test_a_sentry_dsn_without_sentry_sdk_is_refused(tmp_path):
    env = {**os.environ, "PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_SENTRY_DSN": "http://k@h/1"}
    hidden = "import sys; sys.modules['sentry_sdk'] = None\n"  # as if not installed
    run = subprocess.run(
        [sys.executable, "-c", hidden + LOG_AN_ERROR], env=env, capture_output=True, text=True
    )
    assert run.returncode != 0
    assert "sentry-sdk is not installed: install pbem[sentry]" in run.stderr
