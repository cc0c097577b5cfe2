"""Replies from French and Czech mail clients through the real inbound path:
their quote headers are cut and the moves played; command words in every
language; prose before or after the moves (a greeting, a closing, a
signature without its "-- ", a line drawn across) is set aside, the moves
are played and the answer names the lines not read; a line that looks like
a move but that the game cannot read, or prose between moves, makes the
reply a question and nothing is played."""

from __future__ import annotations

import pytest

from benchmarks.replies import cases
from engine import IllegalMove
from pbem.mail.addresses import reply_address
from pbem.mail.commands import read_commands
from pbem.mail.unread_lines import Judge, set_aside
from pbem.models import InboundMessage
from pbem.services.replay import engine_game
from tests.mail.conftest import DOMAIN
from tests.mail.helpers import listed_moves, mail_to, reply, submit_by_smtp, text_of, to, turn_mail
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


def answer_text(rig, user, subject: str = "answer") -> str:
    return text_of(mail_to(rig, user, subject)).replace("\r\n", "\n")


def accepted_text(rig, user, subject: str = "accepted") -> str:
    """The answer to a turn played: the lines set aside are named there, in
    the one mail the turn earns, not in an answer of their own."""
    return answer_text(rig, user, f": {subject}")  # not "not accepted"


def test_replies_from_french_and_czech_clients_are_played(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    played(rig, mail, ann, french_bottom_posted(mail, tile))

    accepted = mail_to(rig, ann, "accepted")
    build = listed_moves(accepted)[0]
    played(rig, accepted, ann, czech_outlook(accepted, build))
    assert moves_of(session, game) == [(1, 0, tile), (2, 0, build)]


def test_moves_followed_by_a_plain_signature_are_played_and_the_signature_named(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    played(rig, mail, ann, f"{tile}\nAnn Player\nGames club of Leeds\n")
    answer = accepted_text(rig, ann)
    assert "These lines were not read:\n  Ann Player\n  Games club of Leeds\n" in answer
    assert not [m for m in rig.capture.messages if to(ann, "answer")(m)]
    assert moves_of(session, game) == [(1, 0, tile)]


def test_a_leaked_quote_between_moves_is_asked_about_not_played(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile, other = listed_moves(mail)[:2]
    leaked = "Your turn. Some of your legal moves:"
    row = answered(rig, mail, ann, f"{tile}\n{leaked}\n  {other}\n")
    assert (row.outcome, row.submission_id) == ("unclear", None)
    question = answer_text(rig, ann)
    assert f"Moves read:\n  {tile}\n  {other}\n" in question
    assert f"Lines not understood:\n  {leaked}\n" in question
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
    row = answered(rig, mail, ann, f"tile 99,99 99,98 98,99\n{junk}\nhut 99,99\n")
    assert (row.outcome, row.submission_id) == ("unclear", None)
    question = answer_text(rig, ann)
    assert "could not be played now either" in question
    assert "Your turn, line 19." in question and "Your turn, line 20." not in question
    assert "(and 5 more lines)" in question
    assert moves_of(session, game) == []


def test_prose_first_is_set_aside_and_a_first_line_that_looks_like_a_move_refused_as_before(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    row = answered(rig, mail, ann, f"tiel {tile.partition(' ')[2]}\n{tile}\n")
    assert row.outcome == "submitted"
    assert judged(rig.app, row.submission_id).status == "rejected"
    assert moves_of(session, game) == []

    played(rig, mail, ann, f"My move:\n{tile}\n")
    assert "This line was not read:\n  My move:\n" in accepted_text(rig, ann)
    assert moves_of(session, game) == [(1, 0, tile)]


def test_a_greeting_and_a_signed_name_around_the_moves_are_set_aside_and_named(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    body = f"Hi all,\n\n{tile}\n\nAnn\n\n{french_bottom_posted(mail, '')}"
    played(rig, mail, ann, body)
    accepted = mail_to(rig, ann, "accepted")
    assert "These lines were not read:\n  Hi all,\n  Ann\n" in text_of(accepted).replace(
        "\r\n", "\n"
    )
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
    assert "These moves can be played now" in question
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


def test_a_clubs_closings_and_signatures_leave_the_turn_to_be_played(rig, session, taluva_of_two):
    game, ann = taluva_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    around = ["Sorry for the delay", "Good luck!", "Have fun", "GL HF", "See you"]
    signature = ["Lucie Martin", "Club de Java de Paris"]
    body = f"{around[0]}\n\n{tile}\n\n" + "\n".join(around[1:]) + "\n\n" + "\n".join(signature)
    played(rig, mail, ann, body)
    listed = "".join(f"  {line}\n" for line in [*around, *signature])
    assert f"These lines were not read:\n{listed}" in accepted_text(rig, ann)
    assert moves_of(session, game) == [(1, 0, tile)]


def test_a_french_java_turn_between_a_cheer_and_kisses_is_played(rig, session, make_user):
    """The first line is no move "Allez", though Java's festival is "fête"."""
    ann, bob = make_user("Ann"), make_user("Bob")
    ann.language = bob.language = "fr"
    game = start_game(rig.app, session, "java", [ann, bob])
    state = engine_game(game).state
    seat = min(state.to_act())
    player = game.seats[seat].user
    move = state.said_move(state.format_move(state.legal_moves(seat)[0]), "fr")
    mail = turn_mail(rig, game, player, "à vous de jouer")
    around = ["Allez, on fait la fête !", "Bonne chance à tous", "Bisous", "A+"]
    around.append("Lucie / 06 12 34 56 78")
    body = f"{around[0]}\n\n{move}\n\n" + "\n".join(around[1:]) + "\n"
    row = answered(rig, mail, player, body)
    assert row.outcome == "submitted", row.detail
    assert judged(rig.app, row.submission_id).status == "accepted"
    listed = "".join(f"  {line}\n" for line in around)
    answer = accepted_text(rig, player, "accepté")
    assert f"Ces lignes n'ont pas été lues :\n{listed}" in answer


def test_a_czech_turn_wished_good_luck_is_played(rig, session, make_user):
    jana, bob = make_user("Jana"), make_user("Bob")
    jana.language = "cs"
    game = start_game(rig.app, session, "taluva", [jana, bob])
    mail = turn_mail(rig, game, jana, "jste na tahu")
    tile = engine_game(game).state.said_move(listed_moves_of_game(game), "cs")
    row = answered(rig, mail, jana, f"{tile}\n\nHodně štěstí\nNa shledanou\nJana\n")
    assert row.outcome == "submitted", row.detail
    assert judged(rig.app, row.submission_id).status == "accepted"
    answer = accepted_text(rig, jana, "přijato")
    assert "Tyto řádky nebyly přečteny:\n  Hodně štěstí\n  Na shledanou\n  Jana\n" in answer


def listed_moves_of_game(game) -> str:
    """The first legal move of the seat to act, as the record writes it."""
    state = engine_game(game).state
    return state.format_move(state.legal_moves(min(state.to_act()))[0])


def test_a_command_followed_by_a_closing_runs_and_the_closing_is_no_move(
    rig, session, taluva_of_two
):
    game, ann = taluva_of_two
    bob = game.seats[1].user
    bob.language = "fr"
    session.commit()
    mail = turn_mail(rig, game, ann)
    own = reply_address(rig.app.config["PBEM_MAIL_REPLY_LOCALPART"], game.seats[1].token, DOMAIN)
    raw = reply(mail, bob.email, "historique\n\nBisous\n", quote=False, To=own)
    row = submit_by_smtp(rig, raw, bob.email, own)
    assert row.outcome == "answered", row.detail
    answer = text_of(mail_to(rig, bob, "réponse")).replace("\r\n", "\n")
    assert "Tous les coups jusqu'ici :" in answer
    assert "Cette ligne n'a pas été lue :\n  Bisous\n" in answer
    assert "Rien n'a été joué" not in answer


# What the club's players wrote around their moves (issue 50), in three languages.
CLUB_WORDS = [
    "Bises", "Bisous", "A+", "Bonne chance à tous", "Good luck!", "Have fun", "GL HF",
    "See you", "Sorry for the delay", "Hodně štěstí", "Na shledanou", "Lucie Martin",
    "Club de Java de Paris", "Lucie Martin / Club de Java de Paris", "Lucie / 06 12 34 56 78",
    "Allez, on fait la fête !", "Bonne route Petr, et fais attention sur la neige !",
]  # fmt: skip


@pytest.mark.parametrize("ruleset", ["taluva", "java", "samurai"])
def test_the_clubs_words_around_a_move_are_set_aside_but_a_broken_move_never(
    rig, session, make_user, ruleset
):
    """Before the move or after it, in every game; what begins with a move's
    word in any language, or names a space, stays to be judged."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, ruleset, [ann, bob])
    state = engine_game(game).state
    seat = game.seats[min(state.to_act())]
    move = state.format_move(state.legal_moves(seat.position)[0])
    judge = Judge(seat)
    for words in CLUB_WORDS:
        assert set_aside(judge, [words, move, words], set()) == ([move], [words, words]), words
    for language in ("en", "fr", "cs"):
        verb, _, rest = state.said_move(move, language).partition(" ")
        broken = [verb, f"{verb} {rest} {rest}".strip()]
        kept, aside = set_aside(judge, [move, *broken], set())
        assert (kept, aside) == ([move, *broken], []), broken


def corpus_replies() -> list:
    return [case for case in cases() if case.language in ("en", "fr", "cs")]


@pytest.mark.parametrize("case", corpus_replies(), ids=lambda case: case.name)
def test_replies_of_the_corpus_keep_their_moves_and_lose_the_prose_around_them(
    rig, session, make_user, case
):
    """Every kind of mail of the reply corpus, read as the inbound path reads
    it: its commands and every line from its first move to its last stay,
    prose before and after is set aside."""
    ann, bob = make_user("Ann"), make_user("Bob")
    ruleset = "java" if case.path.stem.startswith("java") else "taluva"
    seat = start_game(rig.app, session, ruleset, [ann, bob]).seats[0]
    reading = read_commands("\n".join(case.read()))
    state = engine_game(seat.game).state
    moves = [i for i, line in enumerate(reading.moves) if readable(state, line)]
    kept, aside = set_aside(Judge(seat), reading.moves, {"ann"})
    if not moves:
        assert (kept, aside) == ([], reading.moves)
    else:
        assert kept == reading.moves[moves[0] : moves[-1] + 1]
        assert aside == reading.moves[: moves[0]] + reading.moves[moves[-1] + 1 :]


def readable(state, line: str) -> bool:
    try:
        state.parse_syntax(0, line)
    except IllegalMove:
        return False
    return True
