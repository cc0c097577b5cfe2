"""One mail per thing a player needs: a 'moved' mail waits briefly and is not
sent when the 'your turn' that follows tells the same; a lone one goes once
its wait is over; a greeting around a mailed turn is named in the answer to
the turn, not in an answer of its own. The mails of whole rounds are counted
with the wait (as served) and without it (as before)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from pbem.models import Game, MovedMail, OutboxStatus
from tests.mail.helpers import (
    all_sent,
    held_for,
    listed_moves,
    mail_to,
    release,
    reply,
    submit_by_smtp,
    to,
    turn_mail,
)
from tests.server.conftest import drain
from tests.server.pipeline_helpers import judged, play_a_turn, start_game

ROUNDS = 2
NOON = datetime(2027, 5, 4, 10, 0, tzinfo=UTC)


def mails_per_player(rig, players, play) -> dict[str, Counter]:
    """The mails each player got while `play` ran, by the subject's last words."""
    before = len(rig.capture.messages)
    play()
    got: dict[str, Counter] = {p.name: Counter() for p in players}
    for message in rig.capture.messages[before:]:
        for player in players:
            if player.email in str(message["To"]):
                got[player.name][str(message["Subject"]).rsplit(": ", 1)[-1]] += 1
    return got


def rounds_of_three(rig, session, make_user, wait: int, monkeypatch) -> tuple[list, Game, dict]:
    monkeypatch.setitem(rig.app.config, "PBEM_MOVED_MAIL_WAIT_SECONDS", wait)
    players = [make_user(name) for name in ("Ann", "Bob", "Claire")]
    for player in players:
        player.moved_mail = MovedMail.EACH
    session.commit()
    game = start_game(rig.app, session, "taluva", players)
    all_sent(session, game)

    def play() -> None:
        for _ in range(ROUNDS):
            for position in range(3):
                play_a_turn(rig.app, session, game, position)
        drain(rig.app)
        all_sent(session, game)

    return players, game, mails_per_player(rig, players, play)


def test_a_round_of_quick_turns_sends_each_player_one_mail_not_two(
    rig, session, make_user, monkeypatch
):
    with time_machine.travel(NOON, tick=True):
        players, game, waited = rounds_of_three(rig, session, make_user, 300, monkeypatch)
        _, _, at_once = rounds_of_three(rig, session, make_user, 0, monkeypatch)
    claire = players[2]
    # Without the wait: a 'your turn' and a 'moved' each round (the mover
    # before Claire's is told in her 'your turn' already): as before.
    assert at_once[claire.name] == Counter({"your turn": ROUNDS, "Ann moved": ROUNDS})
    assert sum(at_once.values(), Counter())["your turn"] == 3 * ROUNDS
    # With it, each 'moved' is told by the 'your turn' that came within it.
    assert waited[claire.name] == Counter({"your turn": ROUNDS})
    assert sum(waited.values(), Counter()) == Counter({"your turn": 3 * ROUNDS})
    moved = [row for row in held_for(session, claire, game) if row.kind == "moved"]
    assert {row.status for row in moved} == {OutboxStatus.DROPPED}
    assert {row.last_error for row in moved} == {"told in a later mail of the game"}


def test_a_moved_mail_nobody_answers_goes_once_its_wait_is_over(
    rig, session, make_user, monkeypatch
):
    monkeypatch.setitem(rig.app.config, "PBEM_MOVED_MAIL_WAIT_SECONDS", 300)
    ann, bob, cy = (make_user(name) for name in ("Ann", "Bob", "Cy"))
    cy.moved_mail = MovedMail.EACH
    session.commit()
    with time_machine.travel(NOON, tick=True):
        game = start_game(rig.app, session, "taluva", [ann, bob, cy])
        play_a_turn(rig.app, session, game, 0)  # Bob's turn; Cy hears of Ann's move later
        drain(rig.app)
        moved = [row for row in held_for(session, cy, game) if row.kind == "moved"]
        assert [row.status for row in moved] == [OutboxStatus.PENDING]
        assert moved[0].not_before == pytest.approx(
            NOON + timedelta(seconds=300), abs=timedelta(seconds=5)
        )
        release(rig)
        drain(rig.app)
        assert not [m for m in rig.capture.messages if to(cy, "Ann moved")(m)]
    with time_machine.travel(NOON + timedelta(seconds=301), tick=True):
        release(rig)
        mail = rig.capture.take(to(cy, "Ann moved"))
        assert "Now to move: Bob." in mail.get_body(("plain",)).get_content()
        play_a_turn(rig.app, session, game, 1)  # Cy's turn: her 'your turn' tells Bob's move
        all_sent(session, game)
        kinds = [(row.kind, row.status) for row in held_for(session, cy, game)]
        assert kinds[-2:] == [("moved", OutboxStatus.SENT), ("your_turn", OutboxStatus.SENT)]


def test_a_greeting_around_a_mailed_turn_earns_no_mail_of_its_own(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    body = f"Hi all,\n\n{tile}\n\nGood luck!\nAnn\n"
    row = submit_by_smtp(rig, reply(mail, ann.email, body), ann.email, str(mail["Reply-To"]))
    assert judged(rig.app, row.submission_id).status == "accepted"
    accepted = mail_to(rig, ann, ": accepted")
    assert "These lines were not read:" in accepted.get_body(("plain",)).get_content()
    all_sent(session, game)
    drain(rig.app)
    # Her 'your turn', then the answer to her tile (her turn goes on: with the board).
    assert [row.kind for row in held_for(session, ann, game)] == [
        "your_turn",
        "submission_accepted",
    ]
    session.expire_all()
    assert judged(rig.app, row.submission_id).aside is None  # the signature is not kept
