"""The mail's event metrics (pbem.metrics.events), counted in this process,
whose worker thread sends and reads the mail: failures by reason, mails sent
by kind, inbound mail by door and verdict."""

from __future__ import annotations

import uuid

from prometheus_client import REGISTRY
from sqlalchemy import update

from pbem.mail import send
from pbem.mail.addresses import reply_address
from pbem.models import OutboxStatus, User
from tests.mail.conftest import DOMAIN
from tests.mail.helpers import processed, queue_sign_in, send_smtp, text_of, unsent_row
from tests.mail.servers import REFUSED_DOMAIN, capture_controller
from tests.server.conftest import wait_for

REASONS = ("refused", "unwritable", "attempts_spent", "server_down", "temporary")


def count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def failures() -> dict[str, float]:
    return {reason: count("pbem_mail_failures_total", reason=reason) for reason in REASONS}


def test_mail_that_fails_for_good_is_counted_by_reason(rig, session, make_user):
    ann, eve, max_ = make_user("Ann"), make_user("Eve"), make_user("Max")
    session.execute(update(User).where(User.id == eve.id).values(name="Eve\nBcc: all@x.test"))
    session.execute(
        update(User).where(User.id == max_.id).values(email=f"max-metrics@{REFUSED_DOMAIN}")
    )
    session.commit()
    before, sent_before = failures(), count("pbem_mail_sent_total", kind="sign_in")
    session.add_all(
        [
            queue_sign_in(session, eve, "http://x/eve"),
            queue_sign_in(session, max_, "http://x/max"),
            queue_sign_in(session, ann, "http://x/ann"),
        ]
    )
    session.commit()
    rig.capture.take(lambda m: "http://x/ann" in text_of(m))
    wait_for(
        lambda: (
            failures()["refused"] > before["refused"]
            and failures()["unwritable"] > before["unwritable"]
        ),
        what="both failures to be counted",
    )
    limit = rig.app.config["PBEM_MAIL_MAX_ATTEMPTS"]
    spent = unsent_row(
        session, recipient_id=ann.id, kind="sign_in", payload={"link": "x"}, attempts=limit
    )
    send.due_rows(session, 0, limit)
    session.refresh(spent)
    assert spent.status == OutboxStatus.FAILED

    after = failures()
    assert {reason: after[reason] - before[reason] for reason in REASONS} == {
        "refused": 1,
        "unwritable": 1,
        "attempts_spent": 1,
        "server_down": 0,
        "temporary": 0,
    }
    # Counted just after the row is marked: the capture may have it before.
    wait_for(lambda: count("pbem_mail_sent_total", kind="sign_in") - sent_before == 1)


def test_a_down_server_is_counted_each_time_it_is_found_down(rig, session, make_user):
    ann = make_user("Ann")
    before = failures()
    rig.outgoing.stop()
    try:
        queue_sign_in(session, ann, "http://x/down")
        session.commit()
        wait_for(
            lambda: failures()["server_down"] >= before["server_down"] + 2,
            what="two attempts to find the server down",
        )
    finally:
        rig.outgoing = capture_controller(rig.capture, rig.outgoing_port)
        rig.outgoing.start()
    rig.capture.take(lambda m: "http://x/down" in text_of(m))
    after = failures()
    assert after["refused"] == before["refused"] and after["unwritable"] == before["unwritable"]


def test_inbound_mail_is_counted_by_door_and_verdict(rig, game_of_two):
    def verdicts(door: str) -> float:
        return count("pbem_inbound_mail_total", door=door, verdict="refused")

    smtp, http = verdicts("smtp"), verdicts("http")
    game, _ann, _bob = game_of_two
    seat = reply_address(rig.app.config["PBEM_MAIL_REPLY_LOCALPART"], game.seats[0].token, DOMAIN)

    def from_a_stranger() -> tuple[bytes, str]:
        message_id = f"<{uuid.uuid4()}@example.org>"
        raw = f"From: eve@example.org\nTo: {seat}\nMessage-ID: {message_id}\n\nhi\n"
        return raw.encode(), message_id

    raw, message_id = from_a_stranger()
    send_smtp(raw, rig.listener_port, "eve@example.org", seat)
    assert processed(rig.app, message_id).outcome == "refused"
    raw, message_id = from_a_stranger()
    answer = rig.app.test_client().post(
        "/mail/inbound", data=raw, headers={"Authorization": "Bearer inbound-secret"}
    )
    assert answer.status_code == 202
    assert processed(rig.app, message_id).outcome == "refused"
    # Counted just after the row is marked read.
    wait_for(lambda: verdicts("smtp") == smtp + 1 and verdicts("http") == http + 1)
