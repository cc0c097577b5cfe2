"""Replies from French and Czech mail clients through the real inbound path:
their quote headers are cut and the moves played; command words in every
language; a reply whose moves are followed by lines no game reads is
answered with a question and nothing is played, unless those lines are
plainly no move (a greeting, the sender's name, a line drawn across): then
the moves are played and the answer names the lines not read."""

from __future__ import annotations

import pytest

from pbem.mail.commands import read_commands
from pbem.models import InboundMessage
from tests.mail.helpers import listed_moves, mail_to, reply, submit_by_smtp, text_of, turn_mail
from tests.server.pipeline_helpers import judged, moves_of, start_game


@pytest.fixture
def taluva_of_two(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    return start_game(rig.app, session, "taluva", [ann, bob]), ann


def french_bottom_posted(notification, move: str) -> str:
    """Gmail in French, answering under the quote; its attribution wrapped."""
    quoted = "\n".join(f"> {line}" for line in text_of(notification).splitlines())
    return (
        "Le mar. 24 nov. 2026 à 09:15, Serveur de parties pbem <\n"
        f"{notification['Reply-To']}> a écrit :\n{quoted}\n\n{move}\n\n"
        "Envoyé de mon iPhone\n"
    )


def czech_outlook(notification, move: str) -> str:
    """Outlook in Czech: the original below a header block, not quoted."""
    return (
        f"{move}\n\n-----Původní zpráva-----\n"
        f"Od: pbem <{notification['Reply-To']}>\n"
        "Odesláno: úterý 24. listopadu 2026 9:15\n"
        "Komu: Jan Novák <jan@hraci.example>\n"
        f"Předmět: {notification['Subject']}\n\n{text_of(notification)}\n"
    )


def answered(rig, notification, user, body: str, **headers: str) -> InboundMessage:
    raw = reply(notification, user.email, body, quote=False, **headers)
    return submit_by_smtp(rig, raw, user.email, str(notification["Reply-To"]))


def played(rig, notification, user, body: str, **headers: str) -> None:
    """Send the reply and check that its turn went in and was accepted."""
    row = answered(rig, notification, user, body, **headers)
    assert row.outcome == "submitted", row.detail
    assert judged(rig.app, row.submission_id).status == "accepted"


def answer_text(rig, user) -> str:
    return text_of(mail_to(rig, user, "answer")).replace("\r\n", "\n")


def test_replies_from_french_and_czech_clients_are_played(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    played(rig, mail, ann, french_bottom_posted(mail, tile))

    accepted = mail_to(rig, ann, "accepted")
    build = listed_moves(accepted)[0]
    played(rig, accepted, ann, czech_outlook(accepted, build))
    assert moves_of(session, game) == [(1, 0, tile), (2, 0, build)]


def test_moves_followed_by_a_leaked_signature_are_asked_about_not_played(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    row = answered(rig, mail, ann, f"{tile}\nAnn Player\nGames club of Leeds\n")
    assert (row.outcome, row.submission_id) == ("unclear", None)
    question = answer_text(rig, ann)
    assert f"Moves read:\n  {tile}\n" in question
    assert "Lines not understood:\n  Ann Player\n  Games club of Leeds\n" in question
    assert "can be played now" in question
    assert moves_of(session, game) == []

    row = answered(rig, mail, ann, tile)
    assert judged(rig.app, row.submission_id).status == "accepted"
    assert moves_of(session, game) == [(1, 0, tile)]


def test_the_question_says_when_the_moves_read_could_not_be_played_either(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    junk = "\n".join(f"Your turn, line {n}." for n in range(25))
    row = answered(rig, mail, ann, f"tile 99,99 99,98 98,99\n{junk}\n")
    assert (row.outcome, row.submission_id) == ("unclear", None)
    question = answer_text(rig, ann)
    assert "could not be played now either" in question
    assert "Your turn, line 19." in question and "Your turn, line 20." not in question
    assert "(and 5 more lines)" in question
    assert moves_of(session, game) == []


def test_a_first_line_no_game_reads_is_refused_as_before(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    row = answered(rig, mail, ann, f"My move:\n{listed_moves(mail)[0]}\n")
    assert row.outcome == "submitted"
    assert judged(rig.app, row.submission_id).status == "rejected"
    assert moves_of(session, game) == []


def test_a_greeting_and_a_signed_name_around_the_moves_are_set_aside_and_named(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    body = f"Hi all,\n\n{tile}\n\nAnn\n\n{french_bottom_posted(mail, '')}"
    played(rig, mail, ann, body)
    assert "These lines were not read:\n  Hi all,\n  Ann\n" in answer_text(rig, ann)

    accepted = mail_to(rig, ann, "accepted")
    build = listed_moves(accepted)[0]
    body = f"Bonjour,\n----------\n{build}\nMerci,\n— Annie\n"
    played(rig, accepted, ann, body, From=f"Annie Player <{ann.email}>")
    assert moves_of(session, game) == [(1, 0, tile), (2, 0, build)]


def test_a_line_that_may_be_a_mistyped_move_still_stops_the_turn(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    row = answered(rig, mail, ann, f"Hi all,\n{tile}\nhutt 1,0\nAnn\n")
    assert (row.outcome, row.submission_id) == ("unclear", None)
    question = answer_text(rig, ann)
    assert "Lines not understood:\n  hutt 1,0\n" in question
    assert "These lines were not read:\n  Hi all,\n  Ann" in question
    assert moves_of(session, game) == []


def test_command_words_in_french_and_czech_play_their_commands(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    row = answered(rig, mail, ann, "COUPS\nhistorie\n")
    assert row.outcome == "answered"
    answer = text_of(mail_to(rig, ann, "answer"))
    assert "legal moves" in answer and "All moves so far" in answer
    assert read_commands("Vzdat").commands == [("resign", "")]
