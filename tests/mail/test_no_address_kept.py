"""pbem's logs and its rate counters hold nobody's address: a deleted
account's address stayed in the SMTP door's log lines (aiosmtpd logs every
command it reads), in the refusal lines and for an hour in the Redis keys of
the sign-in and refusal limits; and a player's words, which name people,
were logged as each reply was read."""

from __future__ import annotations

import logging
import smtplib
import uuid

import redis

from tests.mail.conftest import DOMAIN
from tests.mail.helpers import forged, reply, submit_by_http, submit_by_smtp, turn_mail
from tests.server.conftest import drain
from tests.server.csrf_browser import Browser
from tests.services import REDIS_URL


def test_a_strangers_address_is_in_no_log_line_and_no_rate_counter(rig, caplog, monkeypatch):
    monkeypatch.setitem(rig.app.config, "PBEM_REFUSAL_LIMIT", "1 per hour")
    # Not the embedded default, whose console shows the sign-in link (and for
    # whom) on purpose: one machine without mail has no other way to give it.
    monkeypatch.setitem(rig.app.config, "PBEM_ENV", "production")
    caplog.set_level(logging.INFO)
    stranger = f"delia-{uuid.uuid4().hex[:8]}@example.org"
    with smtplib.SMTP("127.0.0.1", rig.listener_port, timeout=30) as door:
        door.ehlo()
        door.mail(stranger)
        assert door.rcpt(f"play+no-such-seat@{DOMAIN}")[0] == 550
    for _ in range(2):  # the second is over the limit: not answered, and logged so
        submit_by_http(rig, forged(stranger, f"play+no-such-seat@{DOMAIN}"))
    Browser(rig.app.test_client()).post("/sign-in", {"email": stranger})
    drain(rig.app)
    assert "not sent: too many answered recently" in caplog.text
    assert stranger not in caplog.text
    broker = redis.Redis.from_url(REDIS_URL)
    prefix = rig.app.config["PBEM_TASK_QUEUE"]
    keys = [key.decode() for key in broker.scan_iter(match=f"*{prefix}*")]
    assert any("sign-in" in key for key in keys) and any("refusal" in key for key in keys)
    assert not [key for key in keys if stranger.split("@")[0] in key]


def test_a_players_words_are_not_logged(rig, session, game_of_two, caplog):
    """The reader logged the first 200 characters of each reply it read."""
    caplog.set_level(logging.INFO)
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    named = f"Delia-{uuid.uuid4().hex[:6]}"
    raw = reply(mail, ann.email, f"chat Bonne route {named} !")
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.outcome == "answered" and named in row.detail  # kept for the administrators
    assert named not in caplog.text
