"""Webhooks end to end: the API, the worker posting to a real receiver on
loopback, the signature, each service's shape, retries and switching off,
refused addresses, quiet hours and mute."""

from __future__ import annotations

import hashlib
import hmac
import socket
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from openapi_schema_validator import OAS31Validator
from sqlalchemy import select

from pbem import signals
from pbem.api.webhooks import WEBHOOKS_DOC
from pbem.leagues.seasons import start_season
from pbem.models import DeliveryStatus, Outbox, Webhook, WebhookDelivery
from pbem.notify import deliver, hooks, outbound
from pbem.services.errors import Invalid
from pbem.services.games import SeatSpec, create_game
from pbem.services.notice_choices import choose
from pbem.services.time_control import TimeControl
from tests.server.conftest import wait_for
from tests.server.leagues.season_play import league_of, play_out
from tests.server.notify.addresses import TRANSITION_FORMS
from tests.server.notify.receiver import receiving
from tests.server.pipeline_helpers import judged, send, start_game

DELIVERY = WEBHOOKS_DOC["delivery"]["post"]["requestBody"]["content"]["application/json"]


def verified(secret: str, request) -> dict:
    """The body, once its signature is checked as a receiver would, and once
    it is checked against the API document's `webhooks` section."""
    stamp, v1 = (part.split("=", 1)[1] for part in request.headers["X-Pbem-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{stamp}.".encode() + request.body, hashlib.sha256)
    assert hmac.compare_digest(v1, expected.hexdigest())
    body = request.json()
    OAS31Validator(DELIVERY["schema"]).validate(body)
    return body


def add(api, token, url, format="json", **about):
    answer = api.call("addWebhook", token, {"url": url, "format": format, **about})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_api_adds_lists_tests_and_removes_a_signed_json_hook(
    app, api, make_user, token_for, receiver
):
    token = token_for(make_user("Ann"))
    made = add(api, token, f"{receiver.url}/hook")
    assert len(made["secret"]) == 64
    listed = api.call("listWebhooks", token).get_json()
    assert listed == [{k: v for k, v in made.items() if k != "secret"}]
    assert "secret" not in listed[0]
    assert api.call("testWebhook", token, hook_id=made["id"]).status_code == 202
    request = wait_for(lambda: receiver.requests, what="the test delivery")[0]
    assert request.path == "/hook"
    body = verified(made["secret"], request)
    assert body["event"] == "test" and body["text"]
    renewed = api.call("renewWebhookSecret", token, hook_id=made["id"]).get_json()
    assert renewed["secret"] != made["secret"]
    assert api.call("removeWebhook", token, hook_id=made["id"]).status_code == 204
    assert api.call("listWebhooks", token).get_json() == []


def test_the_signature_is_refused_with_another_secret(app, api, make_user, token_for, receiver):
    token = token_for(make_user("Ann"))
    made = add(api, token, receiver.url)
    api.call("testWebhook", token, hook_id=made["id"])
    request = wait_for(lambda: receiver.requests, what="the test delivery")[0]
    with pytest.raises(AssertionError):
        verified("0" * 64, request)


def test_a_players_hook_hears_of_their_turn_with_title_deadline_and_link(
    app, api, session, make_user, token_for, receiver
):
    ann, bob = make_user("Ann"), make_user("Bob")
    bob.language = "fr"
    session.commit()
    made = add(api, token_for(bob), receiver.url)
    game = create_game(
        session,
        ann,
        "toy-pick",
        [SeatSpec(user=ann), SeatSpec(user=bob)],
        time_control=TimeControl(days_per_move=3),
        title="Club night",
    )
    session.commit()
    judged(app, send(app, session, game, 0, "pick 1").id)
    request = wait_for(lambda: receiver.requests, what="bob's turn")[0]
    body = verified(made["secret"], request)
    assert body["event"] == "your_turn"
    assert body["game"]["id"] == game.public_id
    assert body["game"]["link"].endswith(f"/games/{game.public_id}")
    assert body["game"]["title"] == "Club night" and "Club night" in body["text"]
    assert [seat["seat"] for seat in body["to_act"]] == [1]
    assert body["to_act"][0]["deadline"] is not None
    assert body["text"].startswith("À vous de jouer")  # bob's language


@pytest.mark.parametrize("format", ["discord", "slack", "matrix"])
def test_each_service_gets_its_own_shape(app, api, make_user, token_for, receiver, format):
    token = token_for(make_user("Ann"))
    url = receiver.url + (
        "/_matrix/client/v3/rooms/!room:example.org/send/m.room.message?access_token=tok"
        if format == "matrix"
        else "/hook"
    )
    made = add(api, token, url, format)
    api.call("testWebhook", token, hook_id=made["id"])
    request = wait_for(lambda: receiver.requests, what="the test delivery")[0]
    body = request.json()
    assert "X-Pbem-Signature" not in request.headers
    if format == "discord":
        assert request.method == "POST" and body["content"] and body["allowed_mentions"]
    elif format == "slack":
        assert request.method == "POST" and set(body) == {"text"}
    else:
        assert request.method == "PUT"
        assert request.path.endswith("/send/m.room.message/pbem-" + request.path.rsplit("-")[-1])
        assert "access_token" not in request.path
        assert request.headers["Authorization"] == "Bearer tok"
        assert body["msgtype"] == "m.text" and body["body"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://localhost:9/hook",  # a name resolving to loopback
        "http://[::ffff:10.0.0.1]/hook",
        "ftp://example.org/hook",
    ],
)
def test_hooks_to_private_addresses_are_refused_without_the_setting(api, make_user, token_for, url):
    answer = api.call("addWebhook", token_for(make_user("Ann")), {"url": url, "format": "json"})
    assert answer.status_code == 422


@pytest.mark.parametrize("address", TRANSITION_FORMS.values(), ids=TRANSITION_FORMS.keys())
def test_ipv6_forms_carrying_an_address_that_is_not_public_are_refused(
    api, make_user, token_for, address
):
    url = f"http://[{address}]/hook"
    answer = api.call("addWebhook", token_for(make_user("Ann")), {"url": url, "format": "json"})
    assert answer.status_code == 422
    with pytest.raises(outbound.Refused, match="not public"):
        outbound.checked(url, {})


@pytest.mark.parametrize("address", TRANSITION_FORMS.values(), ids=TRANSITION_FORMS.keys())
def test_a_hook_stored_with_such_an_address_is_not_asked_when_sent_to(
    app, session, make_user, address
):
    """A hook written before the check knew these forms is judged again at
    each delivery."""
    url = f"http://[{address}]/hook"
    hook = Webhook(user_id=make_user("Ann").id, url=url, format="json", secret=hooks.new_secret())
    session.add(hook)
    session.flush()
    delivery = hooks.send_test(session, hook)
    session.commit()
    row = wait_for(lambda: _settled(app, delivery.id), what="the delivery to fail")
    assert row.last_error.startswith("address not allowed: ")  # its class, no more


def test_a_name_is_refused_when_any_address_it_resolves_to_is_not_public(monkeypatch):
    """Every address a name resolves to is judged: an AAAA record in NAT64's
    prefix beside a public A record is refused. (A resolver of the test's own:
    the machine's cannot be given records.)"""
    records = [(socket.AF_INET6, "64:ff9b::a9fe:a9fe"), (socket.AF_INET, "93.184.215.14")]
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *_args, **_kw: [
            (family, socket.SOCK_STREAM, 6, "", (a, 80)) for family, a in records
        ],
    )
    with pytest.raises(outbound.Refused, match="64:ff9b::a9fe:a9fe"):
        outbound.checked("http://hooks.example.org/x", {})
    records.pop(0)
    assert str(outbound.checked("http://hooks.example.org/x", {})[1]) == "93.184.215.14"


def test_the_setting_allows_only_the_networks_and_ports_it_names():
    allowed = {"PBEM_WEBHOOK_ALLOWED_NETWORKS": "10.0.0.0/8:80, [fd00::/8]:8448"}
    assert outbound.checked("http://10.1.2.3/x", allowed)[1].exploded == "10.1.2.3"
    assert str(outbound.checked("https://[fd00::5]:8448/x", allowed)[1]) == "fd00::5"
    refused = (
        "http://127.0.0.1/",
        "http://localhost/",
        "http://169.254.169.254/",
        "https://10.1.2.3/",  # 443: not a port the setting names
        "http://10.1.2.3:8080/",
        "https://[fd00::5]/",
        "http://[64:ff9b::a00:1]/",  # 10.0.0.1 through NAT64: not the network named
        "http://10.0.0.1:99999/",  # no such port
        "http://user@10.0.0.1/",  # credentials in the address
    )
    for url in refused:
        with pytest.raises(outbound.Refused):
            outbound.checked(url, allowed)


def test_an_allowed_network_is_open_on_its_port_and_no_other(app, session, make_user, monkeypatch):
    """Two real receivers on loopback, the setting naming the first one's
    port: the second, on the same network, is refused when added and, stored
    anyway, never asked."""
    ann = make_user("Ann")
    with receiving() as listed, receiving() as other:
        monkeypatch.setitem(
            app.config,
            "PBEM_WEBHOOK_ALLOWED_NETWORKS",
            f"127.0.0.0/8:{listed.url.rsplit(':', 1)[1]}",
        )
        with pytest.raises(Invalid):
            hooks.add_hook(session, ann, other.url, "json", app.config)
        session.rollback()
        hook, _secret = hooks.add_hook(session, ann, listed.url, "json", app.config)
        stored = Webhook(user_id=ann.id, url=other.url, format="json", secret=hooks.new_secret())
        session.add(stored)
        session.flush()
        deliveries = [hooks.send_test(session, hook), hooks.send_test(session, stored)]
        session.commit()
        sent, refused = (
            wait_for(lambda d=d: _settled(app, d.id), what="a delivery") for d in deliveries
        )
        assert sent.status == DeliveryStatus.SENT and len(listed.requests) == 1
        assert refused.status != DeliveryStatus.SENT
        assert refused.last_error == "address not allowed: loopback"
        assert other.requests == []


def test_a_receiver_allowed_when_added_but_not_when_sent_to_is_not_asked(
    app, session, make_user, receiver, monkeypatch
):
    """The address is checked again when sending: a hook cannot be turned on
    pbem's own network after it was added."""
    ann = make_user("Ann")
    hook, _secret = hooks.add_hook(session, ann, receiver.url, "json", app.config)
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_ALLOWED_NETWORKS", "")
    delivery = hooks.send_test(session, hook)
    session.commit()
    row = wait_for(lambda: _settled(app, delivery.id), what="the delivery to fail")
    assert row.last_error == "address not allowed: loopback" and receiver.requests == []


def _settled(app, delivery_id):
    with app.extensions["pbem.db"].session() as fresh:
        row = fresh.get(WebhookDelivery, delivery_id)
        return row if row.attempts and row.status != DeliveryStatus.SENDING else None


def test_a_failing_receiver_gets_retries_and_its_hook_is_switched_off(
    app, session, make_user, receiver, monkeypatch
):
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_MAX_FAILURES", 3)
    receiver.status, receiver.answer = 500, b"x" * 5000
    ann = make_user("Ann")
    start = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False), app.app_context():
        hook, delivery = _tested(app, session, ann, receiver, "json")
        assert deliver.deliver(session, delivery.id, app.config) is None  # not due yet
    for minutes in (1, 2):
        with time_machine.travel(start + timedelta(minutes=minutes), tick=False), app.app_context():
            for due in deliver.due_deliveries(session):
                deliver.deliver(session, due, app.config)
    assert len(receiver.requests) == 3
    session.expire_all()
    row, hook = session.get(WebhookDelivery, delivery.id), session.get(Webhook, hook.id)
    assert (row.status, row.attempts, hook.failures) == (DeliveryStatus.FAILED, 3, 3)
    assert (row.answer_status, row.last_error) == (500, "HTTP 500")  # not the answer's words
    assert hook.disabled_at is not None
    mails = session.scalars(select(Outbox).where(Outbox.recipient_id == ann.id)).all()
    assert [mail.kind for mail in mails] == ["webhook_off"]


def test_retries_stop_a_day_after_the_delivery_was_made(app, session, make_user, receiver):
    receiver.status = 503
    ann = make_user("Ann")
    start = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        hook, delivery = _tested(app, session, ann, receiver, "slack")
    later = start + timedelta(hours=23, minutes=59, seconds=30)
    with time_machine.travel(later, tick=False), app.app_context():
        deliver.deliver(session, delivery.id, app.config)
    session.expire_all()
    row = session.get(WebhookDelivery, delivery.id)
    assert row.status == DeliveryStatus.FAILED and row.attempts == 2
    assert session.get(Webhook, hook.id).disabled_at is None


def _tested(app, session, owner, receiver, format):
    """A hook and its test delivery, once the worker has tried it."""
    hook, _secret = hooks.add_hook(session, owner, receiver.url, format, app.config)
    delivery = hooks.send_test(session, hook)
    session.commit()
    wait_for(lambda: _settled(app, delivery.id), what="the first attempt")
    return hook, delivery


def test_a_hook_posts_at_most_its_rate_a_minute(app, session, make_user, receiver, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_PER_MINUTE", 1)
    ann = make_user("Ann")
    hook, _secret = hooks.add_hook(session, ann, receiver.url, "json", app.config)
    first, second = hooks.send_test(session, hook), hooks.send_test(session, hook)
    session.commit()

    def statuses():
        with app.extensions["pbem.db"].session() as fresh:
            return {fresh.get(WebhookDelivery, d.id).status for d in (first, second)}

    wait_for(lambda: statuses() == {DeliveryStatus.SENT, DeliveryStatus.PENDING}, what="one")
    with app.app_context():
        assert [deliver.deliver(session, d.id, app.config) for d in (first, second)] == [None] * 2
    assert len(receiver.requests) == 1


@time_machine.travel(datetime(2026, 11, 27, 12, 0, tzinfo=UTC))
def test_quiet_hours_hold_a_turn_and_a_muted_game_or_a_digest_reader_gets_none(
    app, api, session, make_user, token_for, receiver
):
    ann = make_user("Ann")
    bob = make_user("Bob", quiet_hours="00:00-23:59")
    cid, dan = make_user("Cid"), make_user("Dan")
    dan.digest_hour = 8  # the daily mail instead of a notice per turn
    for user in (bob, cid, dan):
        add(api, token_for(user), receiver.url)
    bob_game = start_game(app, session, "toy-pick", [ann, bob])
    dan_game = start_game(app, session, "toy-pick", [ann, dan])
    cid_game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=cid)])
    choose(session, cid.id, cid_game.id, {"mail", "push", "webhooks"}, muted=True)
    session.commit()
    for game in (bob_game, cid_game, dan_game):
        judged(app, send(app, session, game, 0, "pick 1").id)
    held = session.scalars(
        select(WebhookDelivery).join(Webhook).where(Webhook.user_id == bob.id)
    ).all()
    assert {row.event for row in held} == {"your_turn"}
    assert {row.status for row in held} == {DeliveryStatus.PENDING}
    assert all(row.next_attempt_at == datetime(2026, 11, 27, 23, 59, tzinfo=UTC) for row in held)
    silent = select(WebhookDelivery).join(Webhook).where(Webhook.user_id.in_([cid.id, dan.id]))
    assert session.scalars(silent).all() == []
    assert receiver.requests == []


def test_an_organisers_game_hook_hears_of_moves_and_the_end(
    app, api, session, make_user, token_for, receiver
):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    made = add(api, token_for(ann), receiver.url, game=game.public_id)
    refused = api.call(
        "addWebhook",
        token_for(bob),
        {"url": receiver.url, "format": "json", "game": game.public_id},
    )
    assert refused.status_code == 403
    judged(app, send(app, session, game, 0, "pick 1").id)
    request = wait_for(lambda: receiver.requests, what="the move")[0]
    body = verified(made["secret"], request)
    assert body["event"] == "move" and "Ann" in body["text"]
    assert [seat["seat"] for seat in body["to_act"]] == [1]


def test_a_league_hook_hears_of_rounds_moves_ends_and_standings(app, session, make_user, receiver):
    owner, league, players = league_of(session, make_user, ["Ann", "Bob"])
    _hook, secret = hooks.add_hook(
        session, owner, receiver.url, "json", app.config, league=league.public_id
    )
    session.commit()
    season = start_season(session, league, pacing="rounds")
    session.commit()
    play_out(session, season.games[0], players[0].id)
    wait_for(
        lambda: (
            {"game_ended", "standings_changed"} <= {r.json()["event"] for r in receiver.requests}
        ),
        what="the game's end",
    )
    bodies = [verified(secret, request) for request in receiver.requests]
    events = {body["event"] for body in bodies}
    assert events == {"round_started", "move", "game_ended", "standings_changed"}
    started = next(body for body in bodies if body["event"] == "round_started")
    assert started["league"]["id"] == league.public_id and "Club" in started["text"]
    standings = next(body for body in bodies if body["event"] == "standings_changed")
    assert standings["league"]["link"].endswith(f"/leagues/{league.public_id}")


def test_a_delivery_is_written_with_the_change_and_not_without_it(
    app, session, make_user, receiver
):
    """The recorder writes in the announcing transaction: a change rolled back
    leaves no delivery, a change committed leaves exactly one."""
    ann, bob = make_user("Ann"), make_user("Bob")
    hook, _secret = hooks.add_hook(session, bob, receiver.url, "json", app.config)
    game = start_game(app, session, "toy-pick", [ann, bob])
    of_hook = select(WebhookDelivery).where(WebhookDelivery.webhook_id == hook.id)
    existing = len(session.scalars(of_hook).all())
    signals.announce(session, signals.turn_started, game_id=game.id, positions=[1], ply=0)
    session.rollback()
    signals.announce(session, signals.turn_started, game_id=game.id, positions=[1], ply=0)
    session.commit()
    assert len(session.scalars(of_hook).all()) == existing + 1
