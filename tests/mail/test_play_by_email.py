"""Whole games played only by email: every reply is built from the legal moves
the last mail listed and goes in through the SMTP listener or, every other
time, through the IMAP mailbox the poller reads."""

from __future__ import annotations

import random
from email.message import EmailMessage
from email.utils import parseaddr

import pytest
from sqlalchemy.orm import Session

from pbem.mail import imap_poller
from pbem.models import Game, GameStatus, User
from pbem.services.replay import verify_game
from tests.mail.conftest import MailRig
from tests.mail.helpers import (
    LEGAL_TITLE,
    board_png,
    listed_moves,
    reply,
    send_imap,
    send_smtp,
    text_of,
)
from tests.mail.servers import ImapServer
from tests.server.pipeline_helpers import moves_of, start_game

# Moves that end a turn or an auction come first, so Java's long game stays short.
PREFERRED = ("end", "agree", "pass", "triple")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def recipient(message: EmailMessage) -> str:
    return parseaddr(str(message["To"]))[1]


def play_by_email(
    rig: MailRig, imap: ImapServer, game: Game, humans: dict[int, User], seed: int
) -> dict[str, int]:
    """Answer every mail that lists moves ('your turn', and 'accepted' while the
    turn goes on) until each human has had 'game over'."""
    chooser = random.Random(seed)
    by_email = {user.email: position for position, user in humans.items()}
    counts = {"your turn": 0, "accepted": 0, "game over": 0, "smtp": 0, "imap": 0}
    finished: set[int] = set()
    while len(finished) < len(humans):
        mail = rig.capture.take(lambda m: str(m["X-Pbem-Game"]) == game.public_id, timeout=60)
        subject = str(mail["Subject"])
        position = by_email[recipient(mail)]
        assert "not accepted" not in subject, mail.get_body(("plain",)).get_content()
        if subject.endswith("game over"):
            assert board_png(mail).startswith(PNG_SIGNATURE)
            finished.add(position)
            counts["game over"] += 1
            continue
        if subject.endswith("accepted"):
            counts["accepted"] += 1
            if not any(LEGAL_TITLE.match(line) for line in text_of(mail).splitlines()):
                continue  # the turn is over
        elif subject.endswith("your turn"):
            counts["your turn"] += 1
        else:
            continue
        assert board_png(mail).startswith(PNG_SIGNATURE)
        listed = listed_moves(mail)
        preferred = [m for kind in PREFERRED for m in listed if m.split()[0] == kind]
        move = preferred[0] if preferred else chooser.choice(listed)
        raw = reply(mail, humans[position].email, move)
        if (counts["smtp"] + counts["imap"]) % 2 == 0:
            send_smtp(raw, rig.listener_port, humans[position].email, str(mail["Reply-To"]))
            counts["smtp"] += 1
        else:
            send_imap(raw, imap)
            assert imap_poller.poll(rig.app) == 1
            counts["imap"] += 1
    return counts


def check_finished_by_mail(session: Session, game: Game, humans: dict[int, User]) -> None:
    session.expire_all()
    stored = session.get(Game, game.id)
    assert stored.status == GameStatus.FINISHED
    assert verify_game(stored) == []
    channels = {(m.seat.position, m.channel) for m in stored.moves}
    for position in humans:
        assert {c for p, c in channels if p == position} == {"mail"}
    assert moves_of(session, game)


@pytest.mark.parametrize("rig", ["postgresql"], indirect=True)
@pytest.mark.parametrize("ruleset", ["taluva", "samurai"])
def test_two_players_play_a_whole_game_only_by_email(rig, imap, session, make_user, ruleset):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, ruleset, [ann, bob])
    counts = play_by_email(rig, imap, game, {0: ann, 1: bob}, seed=7)
    check_finished_by_mail(session, game, {0: ann, 1: bob})
    # One move per reply: a turn of several moves is one 'your turn' and several answers.
    assert counts["accepted"] > counts["your turn"]
    assert counts["smtp"] and counts["imap"]


@pytest.mark.parametrize("rig", ["postgresql"], indirect=True)
def test_java_played_by_email_against_a_bot(rig, imap, session, make_user):
    ann = make_user("Ann")
    game = start_game(rig.app, session, "java", [ann, "bot"])
    counts = play_by_email(rig, imap, game, {0: ann}, seed=3)
    check_finished_by_mail(session, game, {0: ann})
    assert counts["accepted"] > counts["your turn"]
