"""Web Push end to end: the worker encrypts for a device's keys and signs
with the server's VAPID key; the test's push service on loopback decrypts
with the private key it generated. "Your turn" is stacked across games, and
a device whose push service answers 410 is forgotten."""

from __future__ import annotations

import base64
import json
import os
from datetime import UTC, datetime

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.models import PushNotice, PushSubscription, utcnow
from pbem.notify import push
from pbem.notify.push import new_keys
from pbem.services.notice_choices import choose
from pbem.services.time_control import TimeControl
from tests.server.clock.helpers import clocked_game, player
from tests.server.conftest import drain, wait_for
from tests.server.notify.addresses import TRANSITION_FORMS
from tests.server.notify.receiver import receiving
from tests.server.pipeline_helpers import judged, send, start_game

# A push service's address a test may subscribe to: public, and a literal,
# which resolves without a name server. Nothing is ever sent there.
PUBLIC_PUSH = "https://[2606:4700:4700::1111]"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture
def vapid(app, monkeypatch):
    private, public = new_keys()
    monkeypatch.setitem(app.config, "PBEM_VAPID_PRIVATE_KEY", private)
    monkeypatch.setitem(app.config, "PBEM_VAPID_PUBLIC_KEY", public)
    monkeypatch.setitem(app.config, "PBEM_VAPID_SUBJECT", "mailto:admin@example.org")
    return public


class Device:
    """A browser's push subscription: its own key pair and auth secret, at
    the receiver."""

    def __init__(self, session, user, receiver):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.row = PushSubscription(
            user_id=user.id,
            endpoint=f"{receiver.url}/push/{b64(os.urandom(8))}",
            p256dh=b64(public),
            auth=b64(self.auth),
        )
        session.add(self.row)
        session.commit()

    def read(self, request) -> dict:
        assert request.headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            request.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def test_your_turn_is_pushed_encrypted_signed_and_stacked(app, session, make_user, receiver, vapid):
    ann, bob = make_user("Ann"), make_user("Bob")
    device = Device(session, bob, receiver)
    first = start_game(app, session, "toy-pick", [ann, bob])
    second = start_game(app, session, "toy-pick", [ann, bob])
    judged(app, send(app, session, first, 0, "pick 1").id)
    request = wait_for(lambda: receiver.requests, what="a push")[0]
    scheme, _, signed = request.headers["Authorization"].partition(" ")
    fields = dict(part.split("=", 1) for part in signed.split(","))
    assert scheme == "vapid" and fields["k"] == vapid
    claims = json.loads(unb64(fields["t"].split(".")[1]))
    assert claims["aud"] == receiver.url and claims["sub"] == "mailto:admin@example.org"
    message = device.read(request)
    assert message["tag"] == "pbem-your-turn"
    assert "Your turn" in message["title"]
    judged(app, send(app, session, second, 0, "pick 1").id)
    wait_for(lambda: len(receiver.requests) >= 2, what="a second push")
    stacked = device.read(receiver.requests[-1])
    assert stacked["tag"] == "pbem-your-turn"
    assert stacked["title"] == "Your turn in 2 games"


def test_a_device_whose_push_service_says_gone_is_removed(app, session, make_user, receiver, vapid):
    ann, bob = make_user("Ann"), make_user("Bob")
    device_id = Device(session, bob, receiver).row.id
    receiver.status = 410
    game = start_game(app, session, "toy-pick", [ann, bob])
    judged(app, send(app, session, game, 0, "pick 1").id)
    wait_for(lambda: receiver.requests, what="a push")
    drain(app)
    session.expire_all()
    assert session.get(PushSubscription, device_id) is None


@time_machine.travel(datetime(2026, 11, 27, 12, 0, tzinfo=UTC))
def test_a_muted_game_and_quiet_hours_push_nothing(app, session, make_user, receiver, vapid):
    ann = make_user("Ann")
    bob = make_user("Bob", quiet_hours="00:00-23:59")
    cid = make_user("Cid")
    Device(session, bob, receiver)
    Device(session, cid, receiver)
    bob_game = start_game(app, session, "toy-pick", [ann, bob])
    choose(session, cid.id, None, {"mail", "webhooks"})  # cid's default: no push
    session.commit()
    cid_game = start_game(app, session, "toy-pick", [ann, cid])
    for game in (bob_game, cid_game):
        judged(app, send(app, session, game, 0, "pick 1").id)
    drain(app)
    notices = session.scalars(select(PushNotice).where(PushNotice.user_id.in_([bob.id, cid.id])))
    held = notices.all()
    assert {notice.user_id for notice in held} == {bob.id}
    assert {notice.status for notice in held} == {"pending"}
    assert receiver.requests == []


def test_a_device_subscribes_and_unsubscribes(app, session, make_user, signed_in_as, vapid):
    """What push.js posts: the browser's PushSubscription.toJSON(), with the
    page's CSRF token in X-CSRFToken."""
    bob = make_user("Bob")
    page = signed_in_as(bob)
    page.get("/settings")
    subscription = {
        "endpoint": f"{PUBLIC_PUSH}/send/abc",
        "expirationTime": None,
        "keys": {"p256dh": new_keys()[1], "auth": "c2l4dGVlbiBieXRlcyBhdXRo"},
    }
    headers = {"X-CSRFToken": page.token}
    made = page.client.post("/push/subscribe", json=subscription, headers=headers)
    assert made.status_code == 201
    rows = session.scalars(select(PushSubscription).where(PushSubscription.user_id == bob.id))
    assert [row.endpoint for row in rows] == [subscription["endpoint"]]
    refused = page.client.post("/push/subscribe", json={"endpoint": "http://x/"}, headers=headers)
    assert refused.status_code == 422
    page.client.post("/push/unsubscribe", json=subscription, headers=headers)
    session.expire_all()
    assert (
        session.scalars(select(PushSubscription).where(PushSubscription.user_id == bob.id)).all()
        == []
    )


def subscribed(page, endpoint):
    """What push.js posts for a new device, and pbem's answer."""
    subscription = {"endpoint": endpoint, "keys": {"p256dh": new_keys()[1], "auth": b64(b"a" * 16)}}
    return page.client.post(
        "/push/subscribe", json=subscription, headers={"X-CSRFToken": page.token}
    )


@pytest.mark.parametrize(
    "address", [*TRANSITION_FORMS.values(), "127.0.0.1", "169.254.169.254", "10.0.0.1"]
)
def test_a_device_whose_push_service_is_not_public_is_refused(
    session, make_user, signed_in_as, vapid, address
):
    bob = make_user("Bob")
    page = signed_in_as(bob)
    page.get("/settings")
    written = f"[{address}]" if ":" in address else address
    refused = subscribed(page, f"https://{written}/push/abc")
    assert refused.status_code == 422
    assert "pbem may not send to that address: it " in refused.get_data(as_text=True)
    assert (
        session.scalars(select(PushSubscription).where(PushSubscription.user_id == bob.id)).all()
        == []
    )


def test_a_user_keeps_ten_devices_and_the_eleventh_replaces_the_oldest(
    session, make_user, signed_in_as, vapid
):
    bob = make_user("Bob")
    endpoints = [f"{PUBLIC_PUSH}/send/{number}" for number in range(12)]

    def kept():
        session.expire_all()
        rows = session.scalars(select(PushSubscription).where(PushSubscription.user_id == bob.id))
        return {row.endpoint for row in rows}

    with time_machine.travel(datetime(2026, 11, 27, 12, 0, tzinfo=UTC), tick=False) as clock:
        page = signed_in_as(bob)  # its session cookie signed at this time
        page.get("/settings")
        for endpoint in endpoints[:11]:
            assert subscribed(page, endpoint).status_code == 201
            clock.shift(60)
        assert kept() == set(endpoints[1:11])
        subscribed(page, endpoints[1])  # the oldest subscribes again: now the newest
        clock.shift(60)
        subscribed(page, endpoints[11])
    assert kept() == {endpoints[1], *endpoints[3:12]}


def test_one_warning_is_pushed_before_a_deadline(app, session, make_user, receiver, vapid):
    """Ann's 24-hour reminder for a 1-day move comes with a push, once."""
    ann, bob = player(make_user, "Ann", reminder_hours=24), player(make_user, "Bob")
    with time_machine.travel(datetime(2026, 5, 5, 9, tzinfo=UTC), tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], TimeControl(days_per_move=1))
        device = Device(session, ann, receiver)
    for hour in (21, 22):
        with time_machine.travel(datetime(2026, 5, 5, hour, tzinfo=UTC), tick=False):
            sweep(session)
    wait_for(lambda: receiver.requests, what="the warning")
    drain(app)
    warnings = [device.read(r) for r in receiver.requests]
    assert [w["tag"] for w in warnings] == [f"pbem-deadline-{game.public_id}"]
    assert warnings[0]["title"].startswith("Your deadline is near")


def owed(session, user, game, at):
    """A "your turn" notice due at `at`, as _queue writes it, but handed to
    no worker: the test sends it itself."""
    notice = PushNotice(
        user_id=user.id,
        game_id=game.id,
        kind="your_turn",
        status="pending",
        created_at=at,
        next_attempt_at=at,
    )
    session.add(notice)
    session.commit()
    return notice.id


def test_a_push_service_written_as_an_ipv6_literal_is_signed_for_and_pushed_to(
    app, session, make_user, vapid, monkeypatch
):
    """Its origin, http://[::1]:port, is the signature's audience: py_vapid's
    own check refused it, and the notice stayed sending."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    with receiving("::1") as receiver:
        monkeypatch.setitem(app.config, "PBEM_WEBHOOK_ALLOWED_NETWORKS", receiver.allowed)
        device = Device(session, ann, receiver)
        with app.app_context():
            notice_id = owed(session, ann, game, utcnow())
            assert push.send_notice(session, notice_id, app.config) == "sent"
        (request,) = receiver.requests
    fields = dict(part.split("=", 1) for part in request.headers["Authorization"][6:].split(","))
    claims = json.loads(unb64(fields["t"].split(".")[1]))
    assert claims["aud"] == receiver.url and receiver.url.startswith("http://[::1]:")
    assert device.read(request)["tag"] == "pbem-your-turn"


def test_a_notice_no_device_takes_is_given_up_after_its_attempts_and_shown_to_admins(
    app, session, make_user, signed_in_as, vapid, monkeypatch
):
    """A push service at a documentation IPv6 literal (py_vapid raised on it)
    and a device whose keys no browser made (the encoder raises): every
    attempt fails, none leaves the notice sending, the last gives it up."""
    monkeypatch.setitem(app.config, "PBEM_PUSH_MAX_ATTEMPTS", 4)
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    session.add_all(
        [
            PushSubscription(
                user_id=ann.id,
                endpoint="https://[2001:db8::1]/push/1",
                p256dh=new_keys()[1],
                auth=b64(b"a" * 16),
            ),
            PushSubscription(
                user_id=ann.id,
                endpoint="https://[2001:db8::2]/push/2",
                p256dh="not-a-key",
                auth="x",
            ),
        ]
    )
    at = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    notice_id = owed(session, ann, game, at)
    statuses = []
    while not statuses or statuses[-1] == "pending":
        with time_machine.travel(at, tick=False), app.app_context():
            statuses.append(push.send_notice(session, notice_id, app.config))
        session.expire_all()
        notice = session.get(PushNotice, notice_id)
        assert notice.status == statuses[-1] != "sending"
        at = notice.next_attempt_at
    assert statuses == ["pending", "pending", "pending", "failed"]
    assert notice.attempts == 4
    assert notice.last_error.startswith("gave up after 4 attempts: ")
    assert "Refused: " in notice.last_error and "Error: " in notice.last_error
    admin = make_user("Root")
    admin.is_admin = True
    session.commit()
    html = signed_in_as(admin).get("/admin").get_data(as_text=True)
    listed = html.split('id="given-up-push"')[1].split("</section>")[0]
    assert f"#{notice_id} your_turn → {ann.email} ({game.public_id})" in listed
