"""A broker that cannot be reached loses nothing: a move, a sign-in and a
mail that come in meanwhile are stored and answered as such, and the beat's
sweeps hand them on once the broker is back. One database, seen first by an
app whose Redis port refuses, or never answers (a firewall dropping packets),
then by one on the real Redis."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from pbem import create_app, migrate
from pbem.broker_check import BROKER_WAIT_SECONDS
from pbem.db import get_db
from pbem.models import InboundMessage, InboundStatus, Outbox, OutboxStatus, Submission, User
from pbem.services import accounts
from pbem.services.replay import engine_game
from tests.mail.servers import free_port, silent_port
from tests.server.conftest import forget_queues, own_queues, wait_for
from tests.server.pipeline_helpers import start_game
from tests.services import REDIS_URL
from worker.embedded import beat_thread, worker_threads

INBOUND_TOKEN = "door-secret"


@pytest.fixture(params=["refused", "silent"])
def down_then_up(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Flask, Flask]]:
    ports = ExitStack()
    down_port = ports.enter_context(silent_port()) if request.param == "silent" else free_port()
    queues = own_queues("pbem-broker-down")
    shared = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **queues,
        "PBEM_INBOUND_TOKEN": INBOUND_TOKEN,
        "PBEM_STALE_SUBMISSION_SECONDS": 0,
        "PBEM_MAIL_RETRY_SECONDS": 0,
        "PBEM_SWEEP_SECONDS": 1,
    }
    down = create_app({**shared, "PBEM_BROKER_URL": f"redis://127.0.0.1:{down_port}/0"})
    up = create_app({**shared, "PBEM_BROKER_URL": REDIS_URL})
    with up.app_context():
        migrate.upgrade(get_db().engine)
    with ports:
        yield down, up
    for app in (down, up):
        with app.app_context():
            get_db().dispose()
    forget_queues(up)


def test_work_that_comes_in_while_the_broker_is_down_is_stored_and_handed_on_later(
    down_then_up, tmp_path
):
    down, up = down_then_up
    with down.extensions["pbem.db"].session() as session:
        ann = accounts.create_user(session, "ann@example.org", "Ann")
        bob = accounts.create_user(session, "bob@example.org", "Bob")
        token = accounts.issue_api_token(session, ann, "tests")
        game = start_game(down, session, "taluva", [ann, bob])
        state = engine_game(game).state
        tile = state.format_move(state.legal_moves(0)[0])
        game_id = game.public_id
    client = down.test_client()

    started = time.monotonic()
    move = client.post(
        f"/api/v1/games/{game_id}/seats/0/moves",
        json={"moves": [tile]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert move.status_code == 202 and move.get_json()["status"] == "pending"
    submission_id = move.get_json()["id"]

    sign_in = client.post("/sign-in", data={"email": "cy@example.org"})
    assert sign_in.status_code == 200 and "cy@example.org" in sign_in.get_data(as_text=True)

    raw = f"From: eve@example.org\nTo: play+x@localhost\nMessage-ID: <{uuid.uuid4()}@x>\n\nhi\n"
    mail = client.post(
        "/mail/inbound", data=raw.encode(), headers={"Authorization": f"Bearer {INBOUND_TOKEN}"}
    )
    assert mail.status_code == 202 and mail.get_json()["stored"] is True
    # Each gives up on the broker within seconds: at once when it refuses,
    # about 2 s when it never answers (134 s before Redis's clients were
    # given connect timeouts).
    assert time.monotonic() - started < 60

    with (
        worker_threads(up),
        beat_thread(up.extensions["celery"], tmp_path / "beat-schedule"),
    ):
        wait_for(lambda: judged(up, submission_id), what="the stored move to be judged")
        wait_for(lambda: sign_in_sent(up, "cy@example.org"), what="the sign-in mail")
        wait_for(lambda: inbound_read(up, mail.get_json()["id"]), what="the stored mail")


def judged(app: Flask, submission_id: int) -> bool:
    with app.extensions["pbem.db"].session() as session:
        return session.get_one(Submission, submission_id).status == "accepted"


def sign_in_sent(app: Flask, email: str) -> bool:
    with app.extensions["pbem.db"].session() as session:
        status = session.scalar(
            select(Outbox.status)
            .join(User, Outbox.recipient_id == User.id)
            .where(User.email == email, Outbox.kind == "sign_in")
        )
        return status == OutboxStatus.SENT


def inbound_read(app: Flask, inbound_id: int) -> bool:
    with app.extensions["pbem.db"].session() as session:
        return session.get_one(InboundMessage, inbound_id).status == InboundStatus.DONE


def test_redis_connections_wait_seconds_for_an_answer_not_the_systems_timeout(tmp_path):
    """Redis's client is told the connect timeout (Celery's own never reaches
    it), and Celery's bounds the tries of one hand-on: a broker that never
    answers costs a page 2 s (tests/server/test_broker_down.py)."""
    app = create_app(
        {
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "PBEM_BROKER_URL": REDIS_URL,
        }
    )
    with app.extensions["celery"].connection_for_write() as connection:
        assert connection.connect_timeout == BROKER_WAIT_SECONDS
        client = connection.default_channel.client
        assert client.connection_pool.connection_kwargs["socket_connect_timeout"] == 2
