"""Text boards in the reader's language: the lines under the drawing are
translated from the rules catalogues, the drawing stays as it is."""

from __future__ import annotations

from functools import cache

import pytest

from engine.core.game import Game
from engine.core.selfplay import play_bot_game
from pbem.i18n.boards import board_text

GAMES = [("taluva", "uniform"), ("java", "kinds"), ("samurai", "uniform")]


@cache
def bot_game(name: str, bot: str) -> Game:
    """One whole 2-player bot game per ruleset, played once for every test here."""
    return play_bot_game(name, 2, "boards", bot=bot).game


# Words of each game's legend and lines, as the language's rulebook says them.
EXPECTED = {
    ("taluva", "fr"): ["volcan", "forêt", "hutte", "tuiles restant dans la pioche", "place 1"],
    ("taluva", "cs"): ["sopka", "džungle", "chýše", "dílky zbývající", "místo 1"],
    ("java", "fr"): ["légende", "rizière", "pions hors du plateau", "pioche", "votre main"],
    ("java", "cs"): ["legenda", "rýže", "figurky mimo desku", "balík", "vaše karty"],
    ("samurai", "fr"): ["phase : choix d'ouverture", "parure", "mis de côté", "place 1"],
    ("samurai", "cs"): ["fáze: úvodní výběr", "přilba", "odložené", "místo 1"],
}


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize(("name", "bot"), GAMES)
def test_a_text_board_in_french_and_czech(name, bot, language):
    state = Game.new(name, ["Ann", "Bob"], seed="boards").state
    english = state.text_picture(0)
    translated = board_text(state, 0, language)
    assert translated != english
    for word in EXPECTED[name, language]:
        assert word in translated, word
    drawing = state.text_board(0).drawing
    assert translated.startswith(drawing) and english.startswith(drawing)


@pytest.mark.parametrize(("name", "bot"), GAMES)
def test_english_or_an_unknown_language_gives_the_engines_text(name, bot):
    played = bot_game(name, bot)
    for language in ("en", None, "de"):
        assert board_text(played.state, None, language) == played.state.text_picture(None)


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize(("name", "bot"), GAMES)
def test_every_line_of_a_whole_game_is_translated(name, bot, language):
    """No English line is left at any point: each message has a translation."""
    played = bot_game(name, bot)
    replay = Game(played.ruleset, played.seats, played.seed, played.options)
    for entry in played.log:
        replay.play(entry.seat, entry.text)
        board = replay.state.text_board(entry.seat)
        english = board.text().splitlines()[-len(board.lines) :]
        translated = board_text(replay.state, entry.seat, language).splitlines()
        assert not set(english) & set(translated[-len(board.lines) :]), english


def test_the_tiles_behind_a_samurai_screen_are_named_in_the_readers_words():
    game = Game.new("samurai", ["Ann", "Bob"], seed="boards")
    game.play(0, "choose helmet4 buddha3 samurai2 ronin ship1")
    game.play(1, "choose helmet2 helmet3 rice2 ship1 ship1")
    czech = board_text(game.state, 0, "cs")
    assert "ruka přilba4, buddha3, samuraj2, rónin, loď1;" in czech
    french = board_text(game.state, 0, "fr")
    assert "main parure4, bouddha3, samouraï2, chevalier, bateau1 ;" in french
    assert "hand helmet4, buddha3, samurai2, ronin, ship1;" in game.state.text_picture(0)
