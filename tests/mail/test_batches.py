"""Mail in batches over real SMTP: the rows one commit queues go out in one
task, through one connection, from one replay of their game; a server that
goes down in the middle of a batch loses nothing and sends nothing twice."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from celery.signals import task_prerun
from sqlalchemy import func, insert, select, update

from pbem.db import Database
from pbem.mail import game_views, send
from pbem.models import Game, Outbox, OutboxStatus, User
from pbem.services.replay import engine_game
from pbem.task_names import SEND_MAIL, SEND_MAILS
from tests.mail.helpers import all_sent, queue_sign_in, text_of, unsent_row
from tests.mail.servers import (
    GREYLISTED_DOMAIN,
    OneMessagePerConnection,
    capture_controller,
    going_down,
    serving,
)
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import play_first_legal, start_game


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the games the mail composer replays, one entry per replay
    (the real replay runs; the worker thread shares this process)."""
    replayed: list[int] = []

    def counted(game: Game) -> Any:
        replayed.append(game.id)
        return engine_game(game)

    monkeypatch.setattr(game_views, "engine_game", counted)
    return replayed


@pytest.fixture
def mail_tasks() -> Iterator[list[list[int]]]:
    """The outbox ids of every mail task the worker starts, one list per task."""
    started: list[list[int]] = []

    def seen(sender: Any = None, args: Any = None, **_: Any) -> None:
        if sender is not None and sender.name == SEND_MAILS:
            started.append(list(args[0]))

    task_prerun.connect(seen, weak=False)
    yield started
    task_prerun.disconnect(seen)


def rows_after(session, game: Game, last_id: int) -> list[Outbox]:
    session.expire_all()
    query = select(Outbox).where(Outbox.game_id == game.id, Outbox.id > last_id)
    return list(session.scalars(query.order_by(Outbox.id)))


def test_a_turn_notifying_three_seats_is_one_task_one_connection_one_replay(
    rig, session, make_user, replays, mail_tasks
):
    players = [make_user(name) for name in ("Ann", "Bob", "Cy", "Dan")]
    game = start_game(rig.app, session, "taluva", players)
    play_first_legal(rig.app, session, game, 0)  # Ann's tile: her turn goes on
    all_sent(session, game)  # the opening mails: a commit, and a batch, of their own
    last_id = session.scalar(select(func.max(Outbox.id)).where(Outbox.game_id == game.id))
    replays.clear()
    play_first_legal(rig.app, session, game, 0)  # her building: Bob's turn, Cy and Dan told
    all_sent(session, game)
    rows = rows_after(session, game, last_id)
    assert len(rows) == 3 and {row.recipient_id for row in rows} == {p.id for p in players[1:]}
    ids = [row.id for row in rows]
    assert [task for task in mail_tasks if set(task) & set(ids)] == [ids]
    assert len({rig.capture.connection_of[row.message_id] for row in rows}) == 1
    assert replays.count(game.id) == 1


def test_a_server_down_in_mid_batch_leaves_the_rest_for_the_retry_and_sends_none_twice(
    rig, session, make_user
):
    users = [make_user(name) for name in ("Ann", "Bob", "Cy")]
    rig.outgoing.stop()
    try:
        with going_down(rig.outgoing_port, accepts=1) as server:
            rows = [queue_sign_in(session, u, f"http://x/{u.id}") for u in users]
            session.add_all(rows)
            session.commit()  # one batch of three
            first, second, third = sorted(rows, key=lambda row: row.id)

            def retried() -> bool:  # the server is gone: each retry finds it so again
                session.expire_all()
                row = session.get_one(Outbox, second.id)  # one read: a retry may run meanwhile
                return row.attempts >= 2 and row.status == OutboxStatus.PENDING

            wait_for(retried, what="the task to retry the rows left")
            session.refresh(first), session.refresh(third)
            assert (first.status, first.attempts) == (OutboxStatus.SENT, 1)
            assert (second.status, second.last_error.split(":")[0]) == (
                OutboxStatus.PENDING,
                "ConnectionRefusedError",
            )
            assert (third.status, third.attempts) == (OutboxStatus.PENDING, 0)  # not tried yet
            assert [str(m["Message-ID"]) for m in server.messages] == [first.message_id]
    finally:
        rig.outgoing = capture_controller(rig.capture, rig.outgoing_port)
        rig.outgoing.start()

    def all_out() -> bool:
        session.expire_all()
        return all(session.get(Outbox, row.id).status == OutboxStatus.SENT for row in rows)

    wait_for(all_out, what="the rows left to go out once the server is back")
    for row in (second, third):
        rig.capture.take(lambda m, row=row: str(m["Message-ID"]) == row.message_id)
    session.refresh(first)
    assert first.attempts == 1
    assert not [m for m in rig.capture.messages if str(m["Message-ID"]) == first.message_id]


def test_a_connection_the_server_closed_between_mails_is_opened_again(rig, session, make_user):
    users = [make_user(name) for name in ("Ann", "Bob", "Cy")]
    rig.outgoing.stop()
    try:
        handler = OneMessagePerConnection()
        with serving(handler, rig.outgoing_port):
            rows = [queue_sign_in(session, u, f"http://x/{u.id}") for u in users]
            session.add_all(rows)
            session.commit()  # one batch of three

            def taken() -> bool:
                return len(handler.messages) == len(rows)

            wait_for(taken, what="the three mails")
    finally:
        rig.outgoing = capture_controller(rig.capture, rig.outgoing_port)
        rig.outgoing.start()

    def settled() -> bool:
        session.expire_all()
        return all(session.get_one(Outbox, r.id).status == OutboxStatus.SENT for r in rows)

    wait_for(settled, what="the rows to be marked sent")
    assert [row.attempts for row in rows] == [1, 1, 1]  # no retry was needed
    assert len({handler.connection_of[row.message_id] for row in rows}) == 3


def test_a_mail_the_server_defers_is_retried_alone_while_the_batch_goes_on(rig, session, make_user):
    ann, gil = make_user("Ann"), make_user("Gil")
    session.execute(update(User).where(User.id == gil.id).values(email=f"gil@{GREYLISTED_DOMAIN}"))
    session.commit()
    deferred = queue_sign_in(session, gil, f"http://x/{gil.id}")
    fine = queue_sign_in(session, ann, f"http://x/{ann.id}")
    rows = [deferred, fine]
    session.add_all(rows)
    session.commit()  # one batch, the deferred mail first

    def settled() -> bool:
        session.expire_all()
        return all(session.get_one(Outbox, r.id).status == OutboxStatus.SENT for r in rows)

    wait_for(settled, what="both rows to be marked sent")
    assert (deferred.attempts, fine.attempts) == (2, 1)
    connection = {row.id: rig.capture.connection_of[row.message_id] for row in rows}
    assert connection[fine.id] < connection[deferred.id]  # the fine one did not wait
    for row in rows:  # each once
        rig.capture.take(lambda m, row=row: str(m["Message-ID"]) == row.message_id)
        assert not [m for m in rig.capture.messages if str(m["Message-ID"]) == row.message_id]


def test_a_row_queued_on_its_own_by_a_version_before_batches_still_goes_out(
    rig, session, make_user
):
    ann = make_user("Ann")
    row = unsent_row(session, recipient_id=ann.id, kind="sign_in", payload={"link": "http://x/old"})
    rig.app.extensions["celery"].send_task(SEND_MAIL, args=[row.id])
    assert ann.email in str(rig.capture.take(lambda m: "http://x/old" in text_of(m))["To"])

    def sent() -> Outbox | None:
        session.expire_all()
        found = session.get_one(Outbox, row.id)
        return found if found.status == OutboxStatus.SENT else None

    assert wait_for(sent, what="the row to be marked sent").attempts == 1


@pytest.mark.parametrize("rig", ["postgresql"], indirect=True)
def test_two_senders_claiming_one_row_at_once_lease_it_once(rig, session, make_user):
    """Two workers let go at the same moment on one row: one leases it, the
    other gets nothing, and the attempt is counted once (PostgreSQL)."""
    ann = make_user("Ann")
    database = rig.app.extensions["pbem.db"]
    attempts = rig.app.config["PBEM_MAIL_MAX_ATTEMPTS"]
    for _ in range(20):
        # Inserted without an ORM object, so the commit hands it to no worker.
        row_id = session.scalar(
            insert(Outbox)
            .values(recipient_id=ann.id, kind="sign_in", payload={})
            .returning(Outbox.id)
        )
        session.commit()
        barrier = threading.Barrier(2)
        with ThreadPoolExecutor(2) as pool:
            claims = [
                pool.submit(claim_at_once, database, row_id, attempts, barrier) for _ in range(2)
            ]
            leased = [claim.result() for claim in claims]
        assert sorted(leased) == [False, True]
        assert session.scalar(select(Outbox.attempts).where(Outbox.id == row_id)) == 1


def claim_at_once(
    database: Database, row_id: int, max_attempts: int, barrier: threading.Barrier
) -> bool:
    with database.session() as sender:
        barrier.wait()
        return send.claim(sender, row_id, max_attempts) is not None
