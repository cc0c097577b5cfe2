"""`/metrics`: what it shows, who may read it, and that a real `pbem web`
(gunicorn, two processes) and a real `pbem worker` (Celery prefork) sum
their processes' counters."""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
import time_machine
from flask import Flask
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select

from pbem import create_app, migrate
from pbem.config import QUEUE_SETTINGS, ConfigError
from pbem.db import get_db
from pbem.mail import inbound
from pbem.models import (
    Game,
    GameStatus,
    InboundStatus,
    Outbox,
    OutboxStatus,
    Submission,
    SubmissionStatus,
    utcnow,
)
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.replay import engine_game
from tests.mail.servers import free_port
from tests.server.conftest import (
    database_url,
    forget_queue,
    forget_queues,
    own_queues,
    scratch_database,
    wait_for,
)
from tests.server.metric_samples import parsed, scrape, total, value
from tests.server.pipeline_helpers import hand_on, stored_first_tile
from tests.server.server_processes import answers, pbem
from tests.services import REDIS_URL

TOKEN = "metrics-token-for-tests"
OUTSIDE = "198.51.100.7"  # a documentation address: never this machine


@pytest.fixture(params=["sqlite", "postgresql"])
def quiet_app(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Flask]:
    """An app on a database of its own with no worker: what is queued stays queued."""
    postgres = request.param == "postgresql"
    with scratch_database() if postgres else nullcontext() as url:
        flask_app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "PBEM_DATABASE_URL": url or database_url("sqlite", request, tmp_path_factory),
                "PBEM_BROKER_URL": REDIS_URL,
                **own_queues("pbem-test"),
                "PBEM_METRICS_TOKEN": TOKEN,
                "PBEM_TRUSTED_PROXIES": 1,  # behind one proxy, like nginx
            }
        )
        with flask_app.app_context():
            migrate.upgrade(get_db().engine)
        yield flask_app
        with flask_app.app_context():
            get_db().dispose()
    forget_queues(flask_app)


# An afternoon: the players' default quiet hours (22:00-08:00) hold none of
# the games' mails, only the one the test holds itself.
AFTERNOON = datetime(2026, 11, 25, 14, tzinfo=UTC)


@time_machine.travel(AFTERNOON, tick=True)
def test_the_state_comes_from_the_database_and_the_broker(quiet_app):
    app = quiet_app
    queue = app.config["PBEM_TASK_QUEUE"]
    database = app.extensions["pbem.db"]
    before = scrape(app)
    assert value(before, "pbem_database_up") == 1 and value(before, "pbem_broker_up") == 1
    assert value(before, "pbem_outbox_oldest_unsent_seconds") == 0
    assert total(before, "pbem_active_games") == 0

    now = utcnow()
    with database.session() as session:
        waiting = stored_first_tile(session)  # a Taluva game and its first move, pending
        waiting.created_at = now - timedelta(minutes=10)
        ann = waiting.game.seats[0].user
        for _ in range(2):
            create_game(session, ann, "java", [SeatSpec(user=ann), SeatSpec(bot="random")])
        finished = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(bot="random")])
        finished.status = GameStatus.FINISHED
        session.commit()
        # The games' first mails were queued (and handed to the broker) meanwhile.
        session.execute(Outbox.__table__.update().values(created_at=now))
        session.add_all(
            [
                Outbox(recipient_id=ann.id, kind="test", created_at=now - timedelta(hours=1)),
                # Held for quiet hours: not late however old it is.
                Outbox(
                    recipient_id=ann.id,
                    kind="test",
                    created_at=now - timedelta(hours=5),
                    not_before=now + timedelta(hours=3),
                ),
                Outbox(
                    recipient_id=ann.id,
                    kind="test",
                    status=OutboxStatus.SENDING,
                    claimed_until=now + timedelta(minutes=2),
                ),
                Outbox(recipient_id=ann.id, kind="test", status=OutboxStatus.FAILED),
                Outbox(recipient_id=ann.id, kind="test", status=OutboxStatus.SENT, sent_at=now),
            ]
        )
        session.commit()
        pending = session.scalar(
            select(func.count())
            .select_from(Outbox)
            .where(Outbox.status == OutboxStatus.PENDING, Outbox.not_before.is_(None))
        )
        for number, door in enumerate(("http", "http", "smtp", "imap")):
            raw = f"From: x@example.org\nMessage-ID: <{number}-{uuid.uuid4()}@x>\n\nhi\n"
            row = inbound.store(session, raw.encode(), door)
            row.received_at = now - timedelta(minutes=number)
        row.status = InboundStatus.DONE  # the imap one was read
        session.commit()
    depth = value(scrape(app), "pbem_queue_depth", queue=queue)
    hand_on(app, waiting.id)

    after = scrape(app)
    assert value(after, "pbem_queue_depth", queue=queue) == depth + 1
    assert depth + 1 == redis.Redis.from_url(REDIS_URL).llen(queue)
    assert value(after, "pbem_submissions_waiting", channel="api") == 1
    assert 599 < value(after, "pbem_submissions_oldest_waiting_seconds") < 700
    assert value(after, "pbem_active_games", ruleset="taluva") == 1
    assert value(after, "pbem_active_games", ruleset="java") == 2
    assert value(after, "pbem_outbox_backlog", state="pending") == pending
    assert value(after, "pbem_outbox_backlog", state="held") == 1
    assert value(after, "pbem_outbox_backlog", state="sending") == 1
    assert 3599 < value(after, "pbem_outbox_oldest_unsent_seconds") < 3700
    assert value(after, "pbem_outbox_failed") == 1
    assert value(after, "pbem_inbound_mail_waiting", door="http") == 2
    assert value(after, "pbem_inbound_mail_waiting", door="smtp") == 1
    assert value(after, "pbem_inbound_mail_waiting", door="imap") is None
    assert 119 < value(after, "pbem_inbound_mail_oldest_waiting_seconds") < 200


def refused(app: Flask, remote: str, headers: dict[str, str] | None = None) -> int | None:
    """The refusal's status, or None when the metrics were served."""
    response = app.test_client().get(
        "/metrics", environ_base={"REMOTE_ADDR": remote}, headers=headers or {}
    )
    if response.status_code == 200:
        text_string_to_metric_families(response.get_data(as_text=True))
        return None
    assert b"pbem_" not in response.data
    return response.status_code


def test_loopback_may_read_and_others_need_the_token(quiet_app):
    app = quiet_app
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert refused(app, "127.0.0.1") is None
    assert refused(app, "::1") is None
    assert refused(app, "::ffff:127.0.0.1") is None
    assert refused(app, OUTSIDE) == 401
    assert refused(app, OUTSIDE, bearer) is None
    assert refused(app, OUTSIDE, {"Authorization": f"Bearer {TOKEN}x"}) == 401
    assert refused(app, OUTSIDE, {"Authorization": TOKEN}) == 401
    # Through nginx on this machine: the connection is local, the client is not,
    # and is not even when it claims to be.
    assert refused(app, "127.0.0.1", {"X-Forwarded-For": OUTSIDE}) == 401
    assert refused(app, "127.0.0.1", {"X-Forwarded-For": "127.0.0.1"}) == 401
    assert refused(app, "127.0.0.1", {"X-Forwarded-For": f"127.0.0.1, {OUTSIDE}"}) == 401
    assert refused(app, "127.0.0.1", {"X-Forwarded-For": OUTSIDE, **bearer}) is None


def test_without_a_token_only_loopback_may_read(tmp_path):
    app = create_app(
        {"SECRET_KEY": "test", "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    )
    assert refused(app, "127.0.0.1") is None
    assert refused(app, OUTSIDE) == 403
    assert refused(app, OUTSIDE, {"Authorization": "Bearer "}) == 403
    assert refused(app, "127.0.0.1", {"X-Forwarded-For": OUTSIDE}) == 403


def outside_address() -> str:
    """An address of this machine that is not loopback: a client connecting
    to it is, to the server, a client from outside."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.123", 9))  # no packet is sent
        except OSError:
            pytest.skip("this machine has no address besides loopback")
        address = probe.getsockname()[0]
    if address.startswith("127."):
        pytest.skip("this machine has no address besides loopback")
    return address


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def check_access(port: int, path: str = "/metrics") -> None:
    """The access rules over real sockets, on a server listening on every address."""
    outside = f"http://{outside_address()}:{port}{path}"
    local = f"http://127.0.0.1:{port}{path}"
    assert get(outside)[0] == 401
    assert get(outside, {"Authorization": f"Bearer {TOKEN}-wrong"})[0] == 401
    status, text = get(outside, {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200 and parsed(text)
    assert get(local, {"X-Forwarded-For": OUTSIDE})[0] == 401


def taluva_games(env: dict[str, str], count: int) -> tuple[str, list[tuple]]:
    """`count` Taluva games of Ann against Bob, Ann to move; her API
    token and, per game, its id and a legal first move."""
    app = create_app(
        {
            "SECRET_KEY": env["PBEM_SECRET_KEY"],
            "PBEM_DATABASE_URL": env["PBEM_DATABASE_URL"],
            "PBEM_BROKER_URL": env["PBEM_BROKER_URL"],
            **{name: env[name] for name in QUEUE_SETTINGS},
        }
    )
    database = app.extensions["pbem.db"]
    with database.session() as session:
        ann = accounts.create_user(session, "ann@example.org", "Ann")
        bob = accounts.create_user(session, "bob@example.org", "Bob")
        token = accounts.issue_api_token(session, ann, "tests")
        games = []
        for _ in range(count):
            game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
            state = engine_game(game).state
            games.append((game.public_id, state.format_move(state.legal_moves(0)[0])))
        session.commit()
    database.dispose()
    return token, games


@pytest.mark.system
def test_pbem_web_sums_the_counters_of_its_processes(production_env):
    port = int(production_env["PBEM_WEB_BIND"].rpartition(":")[2])
    env = {
        **production_env,
        "PBEM_WEB_BIND": f"0.0.0.0:{port}",
        "PBEM_METRICS_TOKEN": TOKEN,
        "PBEM_TRUSTED_PROXIES": "1",
    }
    subprocess.run(pbem("db", "upgrade"), env=env, check=True, capture_output=True)
    token, games = taluva_games(env, 24)
    server = subprocess.Popen(
        pbem("web", "--workers", "2"),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: answers(base + "/healthz"), 60, "pbem web to answer")

        def move(game: tuple[str, str]) -> int:
            game_id, tile = game
            request = urllib.request.Request(
                f"{base}/api/v1/games/{game_id}/seats/0/moves",
                data=f'{{"moves": ["{tile}"]}}'.encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status

        # At once, so both web processes take some.
        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(move, games)) == {202}

        status, text = get(base + "/metrics")
        assert status == 200
        samples = parsed(text)
        assert value(samples, "pbem_submissions_received_total", channel="api") == len(games)
        assert value(samples, "pbem_submissions_waiting", channel="api") == len(games)
        queue = env["PBEM_TASK_QUEUE"]
        assert value(samples, "pbem_queue_depth", queue=queue) >= len(games)
        assert value(samples, "pbem_active_games", ruleset="taluva") == len(games)
        folder = Path(env["PBEM_INSTANCE_PATH"]) / "metrics" / f"web-0.0.0.0_{port}"
        counting = {path.stem.rpartition("_")[2] for path in folder.glob("counter_*.db")}
        assert len(counting) == 2, f"the moves were not spread over both processes: {counting}"
        check_access(port)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    assert "Traceback" not in output, output[-3000:]


@pytest.fixture
def worker_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    queues = own_queues("pbem-test")
    with scratch_database() as database_url:
        yield {
            **os.environ,
            "PBEM_SECRET_KEY": "test",
            "PBEM_DATABASE_URL": database_url,
            "PBEM_BROKER_URL": REDIS_URL,
            **queues,
            "PBEM_INSTANCE_PATH": str(tmp_path),
            "PBEM_WORKER_METRICS_BIND": f"0.0.0.0:{free_port()}",
            "PBEM_METRICS_TOKEN": TOKEN,
        }
    for queue in queues.values():
        forget_queue(queue)


@pytest.mark.system
def test_pbem_worker_serves_the_judging_of_its_task_processes(worker_env):
    env = worker_env
    app = create_app(
        {
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": env["PBEM_DATABASE_URL"],
            "PBEM_BROKER_URL": REDIS_URL,
            **{name: env[name] for name in QUEUE_SETTINGS},
        }
    )
    database = app.extensions["pbem.db"]
    migrate.upgrade(database.engine)
    worker, bots = (
        subprocess.Popen(
            pbem("worker", *arguments),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for arguments in (["--concurrency", "2"], ["--bots"])  # the bots' serves no metrics
    )
    port = int(env["PBEM_WORKER_METRICS_BIND"].rpartition(":")[2])
    url = f"http://127.0.0.1:{port}/metrics"
    try:
        wait_for(lambda: answers(url), 60, "the worker's metrics to answer")
        # The bots think at a lower CPU priority than people's turns are
        # judged (the bots' worker lowers it once its app is loaded).
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        lowered = min(ours + 10, 19)
        wait_for(
            lambda: os.getpriority(os.PRIO_PROCESS, bots.pid) == lowered,
            60,
            "the bots' worker to lower its priority",
        )
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == ours
        with database.session() as session:
            game = create_game(
                session, None, "taluva", [SeatSpec(bot="random"), SeatSpec(bot="random")]
            )
            session.commit()
            game_id = game.id

        def finished() -> bool:
            with database.session() as session:
                return session.get_one(Game, game_id).status == GameStatus.FINISHED

        wait_for(finished, 180, "the bots to finish their game")
        with database.session() as session:
            judged = dict(
                session.execute(
                    select(Submission.status, func.count())
                    .where(Submission.status != SubmissionStatus.PENDING)
                    .group_by(Submission.status)
                ).all()
            )
        in_database = sum(judged.values())

        def caught_up() -> dict | None:
            """The scrape once it counts every judgment: the worker counts one
            just after committing it, so the last may lag the finished game
            (the wait is the last of a judgment's metrics it records)."""
            status, text = get(url)
            assert status == 200
            samples = parsed(text)
            waits = value(samples, "pbem_submission_wait_seconds_count", channel="bot") or 0
            return samples if waits >= in_database else None

        samples = wait_for(caught_up, 30, "the worker's metrics to count every judgment")
        assert value(samples, "pbem_judge_seconds_count", ruleset="taluva") == in_database
        assert value(samples, "pbem_judge_seconds_bucket", ruleset="taluva", le="+Inf") == sum(
            judged.values()
        )
        assert value(samples, "pbem_judge_seconds_sum", ruleset="taluva") > 0
        waits = value(samples, "pbem_submission_wait_seconds_count", channel="bot")
        assert waits == sum(judged.values())
        for outcome, count in judged.items():
            assert (
                value(samples, "pbem_submissions_judged_total", channel="bot", outcome=outcome)
                == count
            )
        check_access(port)
        status, _ = get(f"http://127.0.0.1:{port}/other")
        assert status == 404
    finally:
        worker.terminate()
        bots.terminate()
        output, _ = worker.communicate(timeout=60)
        thinking, _ = bots.communicate(timeout=60)
        database.dispose()
    assert "Traceback" not in output, output[-3000:]
    assert "Traceback" not in thinking, thinking[-3000:]


def test_a_worker_metrics_address_without_a_port_is_refused(monkeypatch):
    monkeypatch.setenv("PBEM_WORKER_METRICS_BIND", "0.0.0.0")
    with pytest.raises(ConfigError, match="PBEM_WORKER_METRICS_BIND must be address:port"):
        create_app()
