"""Seeded bot games play move for move as they did before the faster legal
lists and move costs (issue 12): a bot picks by index from each list, so a
list with another move or another order changes the game from there on.
The digests of the logs were taken with the straightforward generators."""

import hashlib

import pytest

from engine.core.selfplay import play_bot_game


@pytest.mark.parametrize(
    ("name", "players", "seed", "bot", "moves", "digest"),
    [
        ("taluva", 2, "same-1", "uniform", 48, "0dcf0d2190f079d7"),
        ("taluva", 3, "same-2", "kinds", 72, "db073f637ca2dcaa"),
        ("taluva", 4, "same-3", "uniform", 96, "72d7a21c89bb8bd9"),
        ("java", 4, "same-5", "kinds", 471, "2546eb5422f3d36f"),
    ],
)
def test_seeded_bot_games_play_as_before(name, players, seed, bot, moves, digest):
    log = play_bot_game(name, players, seed, bot=bot).game.log
    text = "\n".join(entry.text for entry in log)
    assert (len(log), hashlib.sha256(text.encode()).hexdigest()[:16]) == (moves, digest)
