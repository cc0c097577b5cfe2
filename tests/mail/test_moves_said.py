"""Moves in a mail are in the reader's words, those the rules hide too:
another seat's secret opening choice ("vybrat 5 tiles (secret)" before)."""

from __future__ import annotations

import engine
from pbem.mail.game_text import seat_picture


def test_a_secret_opening_choice_is_told_in_the_readers_words():
    game = engine.Game.new("samurai", ["Ann", "Bob"], seed="words")
    game.play(0, "choose helmet4 buddha3 samurai2 ronin ship1")
    assert seat_picture(game, 1, "cs").news == ["1. Ann: vybrat 5 dlaždic (tajné)"]
    assert seat_picture(game, 1, "fr").news == ["1. Ann: choisir 5 tuiles (secret)"]
    assert seat_picture(game, 1, "en").news == ["1. Ann: choose 5 tiles (secret)"]
