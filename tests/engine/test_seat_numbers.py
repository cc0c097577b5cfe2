"""People read seats numbered from 1: every text board and event of every
game, at every point of a whole bot game, says "seat 1" for the first seat
and never "seat 0"."""

import re

import pytest

from engine.core.game import Game
from engine.core.selfplay import play_bot_game

SEAT_ZERO = re.compile(r"\bseat 0\b|#0\b|(?<![\w,-])0[hTW]\d*\b")


@pytest.mark.parametrize(
    ("name", "bot"), [("taluva", "uniform"), ("java", "kinds"), ("samurai", "uniform")]
)
def test_text_boards_and_events_number_seats_from_1(name, bot):
    played = play_bot_game(name, 2, "seat-numbers", bot=bot).game
    replay = Game(played.ruleset, played.seats, played.seed, played.options)
    texts = [replay.state.text_picture(None)]
    for entry in played.log:
        replay.play(entry.seat, entry.text)
        texts.append(replay.state.text_picture(None))
        texts.extend(replay.view(None)["state"].get("events", []))
    mentions_zero = [text for text in texts if SEAT_ZERO.search(text)]
    assert mentions_zero == [], mentions_zero[0]
    assert any("seat 1" in text for text in texts) and any("seat 2" in text for text in texts)
