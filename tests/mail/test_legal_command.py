"""`legal` by mail: a long list is answered by kind, with the likeliest moves
and how to narrow it; a space or a kind of move (in any language the game
reads) narrows it; `all` lists every move."""

from __future__ import annotations

import re

import pytest

from engine import Game
from engine.core.selfplay import play_bot_game
from pbem.mail.legal_text import LEGAL_WHOLE, argument_words, legal_text, matches
from pbem.models import User
from tests.mail.helpers import mail_to, reply, submit_by_smtp, text_of, turn_mail
from tests.render.helpers import cut
from tests.server.pipeline_helpers import start_game


def java_start() -> tuple[Game, int]:
    played = Game.new("java", ["Ann", "Bob"], "legal")
    return played, min(played.state.to_act())


def listed(answer: str) -> list[str]:
    """The moves under an answer's title line."""
    return answer.split("\n\n")[0].splitlines()[1:]


def test_a_long_list_is_counted_by_kind_with_the_likeliest_and_how_to_narrow() -> None:
    played, seat = java_start()
    answer = legal_text(played, seat, "")
    assert len(answer) < 2000  # 2,409 moves listed whole made a mail of 179 KB
    assert "You have 2409 legal moves; by kind:\ntriple: 1020\ndouble: 984\n" in answer
    assert "\ntoken: 1\n" in answer and "Some you might consider:\ntriple " in answer
    assert "Reply legal and a space (legal " in answer and "or legal all for every one" in answer


def test_a_space_a_kind_or_both_narrow_the_list() -> None:
    played, seat = java_start()
    by_space = listed(legal_text(played, seat, "g5"))
    assert by_space and all("G5" in move.split("=")[0] or "=G5" in move for move in by_space)
    assert {move.split()[0] for move in by_space} == {
        "triple",
        "double",
        "rice",
        "village",
        "irrigate",
    }
    both = listed(legal_text(played, seat, "triple G5"))
    assert both == [move for move in by_space if move.startswith("triple ")]
    draws = legal_text(played, seat, "draw")
    assert draws == "Your 2 legal moves with draw:\ndraw faceup\ndraw deck"


def test_a_word_that_matches_nothing_says_so_and_how_to_narrow() -> None:
    played, seat = java_start()
    answer = legal_text(played, seat, "festival")
    assert answer.startswith("None of your 2409 legal moves matches festival.")
    assert "by kind:" in answer and "or legal all" in answer


def test_all_lists_every_move() -> None:
    played, seat = java_start()
    assert len(listed(legal_text(played, seat, "all"))) == 2409


def test_a_short_list_is_listed_whole() -> None:
    played = cut(play_bot_game("taluva", 2, "legal").game, 1)  # the build after a tile
    seat = min(played.state.to_act())
    total = len(played.state.legal_moves(seat))
    assert total <= LEGAL_WHOLE
    assert len(listed(legal_text(played, seat, ""))) == total


def test_words_are_read_in_every_language_and_samurai_tiles_by_their_type() -> None:
    samurai = cut(play_bot_game("samurai", 2, "legal").game, 40)
    state = samurai.state
    helmets = [
        move for move in map(state.format_move, state.legal_moves(0)) if move.startswith("helmet")
    ]
    wanted = state.canonical_word("parure")
    assert wanted == "helmet" and all(matches(move, wanted) for move in helmets)
    assert not matches("buddha3 N12", wanted)
    assert argument_words("tuile (2, -1)") == ["tuile", "2,-1"]
    assert matches("tile 0,0 2,-1 1,-1", "2,-1") and not matches("hut 2,-1", "tile")
    assert not matches("triple F3 F4 G3 village=F4", "village")  # a village tile is a kind


@pytest.mark.parametrize("rig", ["sqlite"], indirect=True)
def test_by_mail_in_french_and_czech(rig, session, make_user) -> None:
    ann, bob = make_user("Ann"), make_user("Bob")
    ann.language, bob.language = "fr", "cs"
    session.commit()
    game = start_game(rig.app, session, "java", [ann, bob])
    first: User = ann if game.to_act == [0] else bob
    mail = turn_mail(rig, game, first, "à vous de jouer" if first is ann else "jste na tahu")
    body = "coups\ncoups triple G5" if first is ann else "tahy\ntahy trojdílné G5"
    submit_by_smtp(rig, reply(mail, first.email, body), first.email, str(mail["Reply-To"]))
    answer = text_of(mail_to(rig, first, "réponse" if first is ann else "odpověď"))
    if first is ann:
        assert "Vous avez 2409 coups légaux ; par type de coup :" in answer
        assert "ou coups tous pour les avoir tous" in answer
        assert "Vos 18 coups légaux avec « triple G5 » :\ntriple F4 F5 G5 village=F4" in answer
    else:
        assert "Máte 2409 možných tahů; podle druhu tahu:\ntrojdílné: 1020" in answer
        assert "nebo tahy vše a dostanete všechny" in answer
        assert "Vašich 18 možných tahů s „trojdílné G5“:\ntrojdílné F4 F5 G5 vesnice=F4" in answer


def test_a_long_taluva_list_shows_how_to_narrow_to_a_space() -> None:
    played = cut(play_bot_game("taluva", 2, "legal").game, 2)  # the second tile
    seat = min(played.state.to_act())
    assert len(played.state.legal_moves(seat)) > LEGAL_WHOLE
    answer = legal_text(played, seat, "")
    space = re.search(r"Reply legal and a space \(legal (\S+)\)", answer).group(1)
    assert re.fullmatch(r"-?\d+,-?\d+", space)
    narrowed = listed(legal_text(played, seat, space))
    assert narrowed and all(space in move.split() for move in narrowed)
