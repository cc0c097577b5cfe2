"""Abuse by mail: a flood of mail in a forged sender's name gets that sender
one answer per PBEM_REFUSAL_LIMIT, not one each, and floods in many names
no more than PBEM_REFUSAL_LIMIT_TOTAL together; a reply holding more moves
than one turn is refused with the cap, and nothing is played."""

from __future__ import annotations

import uuid

from pbem.models import InboundMessage, Outbox, Submission
from tests.mail.conftest import DOMAIN
from tests.mail.helpers import (
    count,
    forged,
    mail_to,
    reply,
    submit_by_http,
    submit_by_smtp,
    text_of,
    turn_mail,
)
from tests.server.conftest import drain
from tests.server.pipeline_helpers import moves_of, start_game


def test_a_flood_in_a_forged_name_is_answered_once(rig, session):
    victim = f"victim-{uuid.uuid4().hex[:8]}@example.org"
    to = f"play+no-such-seat@{DOMAIN}"  # the SMTP door refuses it: the HTTP door cannot
    flood = [forged(victim, to) for _ in range(5)]
    rows = [submit_by_http(rig, raw) for raw in flood]
    assert {row.outcome for row in rows} == {"refused"}
    drain(rig.app)
    assert count(session, Outbox, Outbox.to_address == victim) == 1
    mail_to(rig, victim, "not accepted")  # the one answer goes out
    assert count(session, InboundMessage, InboundMessage.id.in_([r.id for r in rows])) == 5


def test_floods_in_many_forged_names_get_no_more_answers_than_the_total_cap(
    rig, session, monkeypatch
):
    monkeypatch.setitem(rig.app.config, "PBEM_REFUSAL_LIMIT_TOTAL", "3 per hour")
    victims = [f"victim-{uuid.uuid4().hex[:8]}@example.org" for _ in range(5)]
    rows = [
        submit_by_http(rig, forged(victim, f"play+no-such-seat@{DOMAIN}")) for victim in victims
    ]
    assert {row.outcome for row in rows} == {"refused"}
    drain(rig.app)
    assert count(session, Outbox, Outbox.to_address.in_(victims)) == 3


def test_a_reply_with_more_moves_than_a_turn_is_refused_with_the_cap(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann)
    text = "tile 0,0 0,-1 1,-1\nhut 1,-1\nhut 0,-1"
    row = submit_by_smtp(rig, reply(mail, ann.email, text), ann.email, str(mail["Reply-To"]))
    assert (row.outcome, row.submission_id) == ("refused", None)
    answer = text_of(mail_to(rig, ann, "answer"))
    assert "Nothing was played: the submission holds 3 moves; send at most 2 at once." in answer
    assert count(session, Submission, Submission.game_id == game.id) == 0
    assert moves_of(session, game) == []
