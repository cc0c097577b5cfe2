"""Real services for the server tests: PostgreSQL and SQLite databases, Redis as
the broker, and Celery worker threads consuming queues of their own (the
tasks' and the bots')."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import redis
from celery.signals import before_task_publish, task_postrun
from flask import Flask
from sqlalchemy import create_engine, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from werkzeug.serving import make_server

from pbem import create_app, migrate
from pbem.config import QUEUE_SETTINGS
from pbem.db import get_db
from pbem.models import Game, GameStatus, User, utcnow
from pbem.services import accounts
from tests.mail.servers import free_port
from tests.server.csrf_browser import Browser
from tests.server.openapi_client import OpenApiClient
from tests.server.signed_in import sign_in as signed_in_client
from tests.services import POSTGRES_URL, REDIS_URL
from worker.embedded import worker_threads


@contextmanager
def scratch_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped afterwards. Its
    commits do not wait for the disk (what a crash of the server would lose
    is a scratch database's): a commit answers in a third of the time."""
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    name = f"pbem_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
        connection.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A database of this test session's own, dropped at the end."""
    with scratch_database() as url:
        yield url


def database_url(backend: str, request: pytest.FixtureRequest, tmp: Any) -> str:
    if backend == "postgresql":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp.mktemp('sqlite') / 'pbem.sqlite3'}"


@pytest.fixture(scope="session")
def app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Flask]:
    """The app on one database (PostgreSQL, and SQLite too for the tests marked
    `also_sqlite`: tests/conftest.py), with a worker thread on its own Redis queue."""
    flask_app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": database_url(request.param, request, tmp_path_factory),
            "PBEM_BROKER_URL": REDIS_URL,
            **own_queues("pbem-test"),
        }
    )
    with flask_app.app_context():
        migrate.upgrade(get_db().engine)
    with worker_threads(flask_app):
        yield flask_app
    with flask_app.app_context():
        get_db().dispose()
    forget_queues(flask_app)


def own_queues(prefix: str) -> dict[str, str]:
    """Queues of a test app's own, for its tasks and its bots, so runs
    sharing the Redis never take each other's tasks."""
    queue = f"{prefix}-{uuid.uuid4().hex[:12]}"
    return {
        "PBEM_TASK_QUEUE": queue,
        "PBEM_BOT_QUEUE": f"{queue}-bots",
        "PBEM_NOTICE_QUEUE": f"{queue}-notices",
    }


def forget_queues(app: Flask) -> None:
    for setting in QUEUE_SETTINGS:
        forget_queue(app.config[setting])


@contextmanager
def app_of_its_own(folder: Any, **settings: Any) -> Iterator[Flask]:
    """An app with settings the shared one cannot take, on a migrated SQLite
    file in `folder` and a Redis queue of its own (no worker)."""
    flask_app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "PBEM_BROKER_URL": REDIS_URL,
            **own_queues("pbem-own"),
            **settings,
        }
    )
    with flask_app.app_context():
        migrate.upgrade(get_db().engine)
    try:
        yield flask_app
    finally:
        with flask_app.app_context():
            get_db().dispose()
        forget_queues(flask_app)


def forget_queue(queue: str) -> None:
    """Delete a test queue and kombu's keys for it, so the test Redis stays small."""
    broker = redis.Redis.from_url(REDIS_URL)
    for key in broker.scan_iter(match=f"*{queue}*"):
        broker.delete(key)


@pytest.fixture
def postgres_only(app: Flask) -> Flask:
    """The app, on PostgreSQL only: races need a database that serves clients at once."""
    if app.extensions["pbem.db"].is_sqlite:
        pytest.skip("the race needs a database that serves clients at once")
    return app


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    """A session outside any app context, so each test request gets its own."""
    with app.extensions["pbem.db"].session() as db_session:
        yield db_session


@pytest.fixture
def make_user(session: Session) -> Callable[..., User]:
    """Users without quiet hours unless a test gives some (like "22:00-08:00",
    every new user's), so no test depends on the hour the suite runs at."""

    def make(name: str = "Ann", quiet_hours: str | None = None) -> User:
        user = accounts.create_user(
            session, f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.org", name
        )
        user.quiet_start, user.quiet_end = accounts.parse_quiet_hours(quiet_hours)
        session.commit()
        return user

    return make


@pytest.fixture
def api(app: Flask) -> OpenApiClient:
    """A client of the JSON API that checks every answer against its document."""
    return OpenApiClient(app.test_client())


@pytest.fixture
def token_for(session: Session) -> Callable[[User], str]:
    """An API token for a user."""

    def issue(user: User) -> str:
        token = accounts.issue_api_token(session, user, "tests")
        session.commit()
        return token

    return issue


def run_task(app: Flask, name: str, *args: Any) -> Any:
    """Run the app's own task `name` in this thread, as its worker would. A
    task imported from its module runs in Celery's current app instead: the
    one made last in this thread, whatever test made it."""
    return app.extensions["celery"].tasks[name](*args)


def wait_for(condition: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class QueueLedger:
    """The tasks this process has sent to each queue and its worker threads
    have not finished yet, by task id (a retry is sent anew under its id): a
    queue is idle when none is left. A message between the broker and a
    worker shows in neither the queue's length nor the worker's state, so a
    drain that only looked found a chain of tasks idle at its joints.

    A task the broker delivers twice finishes twice: Redis hands an unacked
    message out again once it looks older than the visibility timeout by the
    wall clock, which a test's time travel moves for the worker threads too.
    Its second finish is not counted, or a count of finishes would run ahead
    of the sends for the rest of the process: every later drain of it would
    return early or never."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._unfinished: defaultdict[str, Counter[str]] = defaultdict(Counter)

    def listen(self) -> QueueLedger:
        """Count what this process's Celery apps send and finish from now on."""
        before_task_publish.connect(self.sent, weak=False)
        task_postrun.connect(self.finished, weak=False)
        return self

    def sent(self, routing_key: str = "", headers: Any = None, **_: Any) -> None:
        with self._lock:
            self._unfinished[routing_key][(headers or {}).get("id", "")] += 1

    def finished(self, task_id: str = "", task: Any = None, **_: Any) -> None:
        queue = (task.request.delivery_info or {}).get("routing_key")
        if queue:  # a task run in the test's own thread was never sent
            with self._lock:
                unfinished = self._unfinished[queue]
                if unfinished[task_id] > 0:  # else a second delivery's finish
                    unfinished[task_id] -= 1

    def idle(self, queues: Iterable[str]) -> bool:
        with self._lock:
            return not any(+self._unfinished[queue] for queue in queues)


QUEUES = QueueLedger().listen()


def drain(app: Flask, timeout: float = 30.0) -> None:
    """Wait until every task sent to the app's queues has been run."""
    queues = [app.config[setting] for setting in QUEUE_SETTINGS]
    wait_for(lambda: QUEUES.idle(queues), timeout, "the worker to finish")


@contextmanager
def production_settings(instance: Path, **settings: str) -> Iterator[dict[str, str]]:
    """The settings an administrator puts in the environment, with a scratch
    database and queues of the test's own; `settings` are laid over them."""
    port = free_port()
    queues = own_queues("pbem-test")
    with scratch_database() as database_url:
        yield {
            **os.environ,
            "PBEM_ENV": "production",
            "PBEM_SECRET_KEY": uuid.uuid4().hex,
            "PBEM_DATABASE_URL": database_url,
            "PBEM_BROKER_URL": REDIS_URL,
            **queues,
            "PBEM_BASE_URL": f"http://127.0.0.1:{port}",
            "PBEM_WEB_BIND": f"127.0.0.1:{port}",
            "PBEM_INSTANCE_PATH": str(instance),
            **settings,
        }
    for queue in queues.values():
        forget_queue(queue)


@pytest.fixture
def production_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Production settings for the `pbem` commands a test starts."""
    with production_settings(tmp_path) as env:
        yield env


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def live(app: Flask) -> Iterator[tuple[Flask, str]]:
    """The app (its worker thread on Redis) served on a loopback port, for a
    real browser."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Chromium driven by Playwright (tests using it are `system`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(app: Flask) -> Browser:
    return Browser(app.test_client())


@pytest.fixture
def signed_in_as(app: Flask) -> Callable[[User], Browser]:
    """A browser whose session already belongs to the user (the sign-in flow
    itself is tested in web/test_sign_in.py)."""

    def sign_in(user: User) -> Browser:
        return Browser(signed_in_client(app, app.test_client(), user.id))

    return sign_in


# Every server test shares its database with the others, and a sweep acts on
# every game and player in it: after each test its clocked games are paused
# and its players' daily digests count as sent for good, so no later sweep
# (at whatever time a test travels to) acts on them.
@pytest.fixture(autouse=True)
def leave_nothing_for_later_sweeps(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "app" not in request.fixturenames:
        return
    app = request.getfixturevalue("app")
    with app.extensions["pbem.db"].session() as session:
        session.execute(
            update(Game)
            .where(
                Game.status == GameStatus.ACTIVE,
                Game.days_per_move.is_not(None),
                Game.paused_at.is_(None),
            )
            .values(paused_at=utcnow())
        )
        session.execute(
            update(User)
            .where(User.digest_hour.is_not(None), User.digest_sent_on.is_distinct_from(date.max))
            .values(digest_sent_on=date.max)
        )
        session.commit()
