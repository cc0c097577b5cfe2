"""Notices on a road of their own: a receiver that answers a byte at a time
is cut at the request's deadline, holds no database transaction open, never
gets a delivery twice, is bounded in the requests it holds and is backed off
once it keeps timing out; and meanwhile turns are judged, since mail,
webhooks and push are sent from a queue of their own."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import time_machine
from sqlalchemy import delete, select, text

from pbem.models import DeliveryStatus, ReceiverHost, Webhook, WebhookDelivery, utcnow
from pbem.notify import deliver, outbound
from pbem.services.games import SeatSpec, create_game
from tests.server.conftest import drain
from tests.server.notify.receiver import Dripper, dripping
from tests.server.pipeline_helpers import judged, send


@pytest.fixture
def dripper(app, session, monkeypatch):
    """The receiver, and its host's record forgotten after the test: the other
    tests' receivers are on the same host."""
    with dripping() as running:
        monkeypatch.setitem(app.config, "PBEM_WEBHOOK_ALLOWED_NETWORKS", running.allowed)
        yield running
    session.rollback()
    session.execute(delete(ReceiverHost))
    session.commit()


def stored_delivery(session, user, url: str) -> int:
    """A delivery written without telling any worker, for the test to post."""
    hook = Webhook(user_id=user.id, url=url, format="json", secret="s" * 64)
    session.add(hook)
    session.flush()
    delivery = WebhookDelivery(webhook_id=hook.id, event="test", payload={})
    session.add(delivery)
    session.commit()
    return delivery.id


def posting_in_the_background(app, delivery_id: int) -> threading.Thread:
    def post() -> None:
        with app.app_context(), app.extensions["pbem.db"].session() as session:
            deliver.deliver(session, delivery_id, app.config)

    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    return thread


def test_an_answer_dribbled_a_byte_at_a_time_ends_at_the_deadline(dripper: Dripper):
    config = {"PBEM_WEBHOOK_ALLOWED_NETWORKS": dripper.allowed, "PBEM_WEBHOOK_TIMEOUT_SECONDS": 1}
    with pytest.raises(TimeoutError):
        outbound.send(dripper.url, b"{}", {}, config)
    dripper.wait_until(lambda: dripper.open == 0, "pbem to hang up")
    assert dripper.connections == 1


def test_a_turn_is_judged_while_receivers_drip(
    app, session, api, make_user, token_for, dripper, monkeypatch
):
    """Six hooks tested at once, each answered a byte at a time: what held
    every turn of the server for minutes, as webhooks were posted by the
    workers that judge turns."""
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_TIMEOUT_SECONDS", 60)
    eve, ann, bob = make_user("Eve"), make_user("Ann"), make_user("Bob")
    token = token_for(eve)
    for _ in range(6):
        made = api.call("addWebhook", token, {"url": dripper.url, "format": "json"})
        assert api.call("testWebhook", token, hook_id=made.get_json()["id"]).status_code == 202
    dripper.wait_for_open(1)
    game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob)])
    session.commit()
    assert judged(app, send(app, session, game, 0, "pick 1").id).status == "accepted"
    assert dripper.open >= 1, "the turn waited for the receiver"
    dripper.release()
    drain(app)  # the deliveries fail at once now, before the next test


def test_no_transaction_is_open_and_the_lease_outlasts_the_request(
    app, session, make_user, dripper, monkeypatch
):
    """A request may take PBEM_WEBHOOK_TIMEOUT_SECONDS, here longer than the
    minute leases used to last: a second sender a minute on must not post
    the delivery again, and the database holds nothing open meanwhile."""
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_TIMEOUT_SECONDS", 90)
    delivery_id = stored_delivery(session, make_user("Ann"), dripper.url)
    first = posting_in_the_background(app, delivery_id)
    dripper.wait_for_open(1)
    if app.extensions["pbem.db"].engine.dialect.name == "postgresql":
        idle = session.scalar(
            text(
                "SELECT string_agg(query, ' | ') FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND state LIKE 'idle in transaction%'"
            )
        )
        session.commit()
        assert idle is None, idle
    with time_machine.travel(utcnow() + timedelta(seconds=61)), app.app_context():
        assert deliver.deliver(session, delivery_id, app.config) is None
    dripper.release()
    first.join(30)
    assert dripper.connections == 1


def test_requests_to_one_host_are_bounded(app, session, make_user, dripper, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_RECEIVER_CONCURRENCY", 1)
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_TIMEOUT_SECONDS", 60)
    ann = make_user("Ann")
    busy, waiting = (stored_delivery(session, ann, dripper.url) for _ in range(2))
    first = posting_in_the_background(app, busy)
    dripper.wait_for_open(1)
    with app.app_context():
        assert deliver.deliver(session, waiting, app.config) == DeliveryStatus.PENDING
    row = session.get_one(WebhookDelivery, waiting, populate_existing=True)
    assert row.attempts == 0 and row.next_attempt_at > utcnow()
    assert dripper.connections == 1
    dripper.release()
    first.join(30)


def test_a_host_that_keeps_timing_out_is_backed_off_for_everyone(
    app, session, make_user, dripper, monkeypatch
):
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_TIMEOUT_SECONDS", 1)
    monkeypatch.setitem(app.config, "PBEM_RECEIVER_TIMEOUTS", 2)
    ann, bob = make_user("Ann"), make_user("Bob")
    with app.app_context():
        for user in (ann, bob):
            delivery_id = stored_delivery(session, user, dripper.url)
            assert deliver.deliver(session, delivery_id, app.config) == DeliveryStatus.PENDING
        assert session.get_one(WebhookDelivery, delivery_id).last_error == "timed out"
        host = session.scalar(select(ReceiverHost).where(ReceiverHost.host == "127.0.0.1"))
        assert host.timeouts == 2 and host.backed_off_until > utcnow()
        later = stored_delivery(session, make_user("Cy"), dripper.url + "/other")
        assert deliver.deliver(session, later, app.config) == DeliveryStatus.PENDING
    row = session.get_one(WebhookDelivery, later, populate_existing=True)
    assert (row.attempts, row.next_attempt_at) == (0, host.backed_off_until)
    assert dripper.connections == 2
