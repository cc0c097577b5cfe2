"""Taluva's bots: every level plays whole legal games, sees only its own seat
(the pile and, for others, the tile in hand are re-dealt), and repeats itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.bots import make_bot
from engine.bots.base import Bot
from engine.bots.greedy import GreedyBot
from engine.bots.random_play import RandomBot
from engine.bots.strategy import strategy_for
from engine.core.game import Game
from engine.core.rng import SeededRandom
from engine.games.taluva.island import Settlement
from engine.games.taluva.strategy import PROSPECT, TURN_SEARCHES, TaluvaStrategy, temple_prospects
from engine.games.taluva.tiles import full_set
from engine.games.taluva.turns import TurnSearchBot, whole_turns
from tests.engine.bot_tables import MIXED_TABLES, table_id
from tests.engine.taluva.helpers import position

pytestmark = pytest.mark.heavy  # whole games: not in the quick tier

# `strong` gets `medium`'s budget in tests: its own (TURN_SEARCHES) is for
# play, and the moves' legality is the same.


def bot(level: str, key: str) -> Bot:
    """The bot of a level, `strong` searching with `medium`'s budget."""
    if level == "strong":
        return TurnSearchBot(key, TaluvaStrategy(foresight=True), TURN_SEARCHES["medium"])
    return make_bot(level, "taluva", key)


@pytest.mark.parametrize("levels", MIXED_TABLES, ids=table_id)
def test_every_level_plays_whole_legal_games(levels):
    game = Game.new("taluva", list(levels), f"whole-{len(levels)}")
    while not game.state.is_over():
        seat = game.state.current
        move = bot(levels[seat], f"{len(game.log)}").choose(game.state, seat)
        assert move in game.state.legal_moves(seat)
        game.push(seat, move)  # checked again by the rules
    assert game.state.result().reason


@pytest.mark.parametrize("plies", [0, 1, 8, 15, 30])
@pytest.mark.parametrize("players", [2, 3])
def test_a_redeal_keeps_what_the_seat_sees_and_the_tiles_it_has_not(plies, players):
    state = position(f"redeal-{players}", plies, players)
    for seat in range(players):
        redealt = state.copy()
        redealt.redeal_unseen(seat, SeededRandom(f"other-{seat}"))
        assert redealt.view(seat) == state.view(seat)
        assert len(redealt.pile) == len(state.pile)
        in_hand = [redealt.drawn] if redealt.drawn else []
        in_play = Counter(redealt.laid + redealt.pile + in_hand)
        assert not in_play - Counter(full_set())  # no tile more often than the set has it
        if seat == state.current:
            assert redealt.drawn == state.drawn


def test_a_redeal_draws_from_tiles_left_out_of_the_game():
    state = position("left-out", 4)
    unseen = Counter(full_set()) - Counter([*state.laid, state.drawn])
    piles = set()
    for i in range(30):
        redealt = state.copy()
        redealt.redeal_unseen(state.current, SeededRandom(f"deal-{i}"))
        piles.add(tuple(redealt.pile))
        assert not Counter(redealt.pile) - unseen
    assert len(piles) == 30
    assert any(Counter(pile) - Counter(state.pile) for pile in piles)


@pytest.mark.parametrize("plies", [2, 9, 20])
@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_what_the_seat_cannot_see_never_changes_the_choice(level, plies):
    state = position(f"fair-{plies}", plies)
    seat = state.current
    chosen = bot(level, "fair").choose(state, seat)
    for i in range(3):
        redealt = state.copy()
        redealt.redeal_unseen(seat, SeededRandom(f"another pile {i}"))
        assert redealt.pile != state.pile
        assert bot(level, "fair").choose(redealt, seat) == chosen


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_medium_and_strong_play_turn_searches_of_their_own_budgets(level):
    played = make_bot(level, "taluva", "k")
    assert isinstance(played, TurnSearchBot)
    search = TURN_SEARCHES[level]
    assert (played.kept, played.deals, played.followed) == (
        search.kept,
        search.deals,
        search.followed,
    )
    assert isinstance(make_bot("easy", "taluva", "k"), GreedyBot)
    assert isinstance(make_bot("random", "taluva", "k"), RandomBot)


def test_temple_prospects_count_the_biggest_settlements_without_a_temple():
    def settlement(size: int, temples: int = 0) -> Settlement:
        return Settlement(0, frozenset((q, 0) for q in range(size)), temples, 0)

    settlements = [settlement(1), settlement(5, temples=1), settlement(4), settlement(2)]
    assert temple_prospects(settlements, 3) == PROSPECT[3] + PROSPECT[2] + PROSPECT[1]
    assert temple_prospects(settlements, 1) == PROSPECT[3]
    assert temple_prospects(settlements, 0) == 0


@pytest.mark.parametrize("followed", [None, 2])
def test_whole_turns_end_the_turn_after_the_placements_followed(followed):
    state = position("turns", 10)
    seat = state.current
    strategy = strategy_for("taluva")
    turns = whole_turns(strategy, state, seat, followed)
    placements = list(dict.fromkeys(move for move, _ in turns))
    weighed = strategy.candidates(state, seat)
    assert len(placements) == (followed or len(weighed))
    assert set(placements) <= set(weighed)
    for move, after in turns:
        assert after.current != seat or after.is_over()
        assert after.laid[:-1] == state.laid
        assert move in state.legal_moves(seat)


CHOOSE_IN_A_FRESH_PROCESS = """
import json
from engine.bots import make_bot
from tests.engine.bot_tables import MIXED_TABLES, table_id
from tests.engine.taluva.helpers import position

state = position("again", 12)
move = make_bot("strong", "taluva", "same key").choose(state, state.current)
print(json.dumps(state.format_move(move)))
"""


@pytest.mark.system
def test_the_same_key_and_position_give_the_same_move_in_any_process():
    state = position("again", 12)
    move = make_bot("strong", "taluva", "same key").choose(state, state.current)
    assert make_bot("strong", "taluva", "same key").choose(state, state.current) == move
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", CHOOSE_IN_A_FRESH_PROCESS],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=Path(__file__).parents[2],
    ).stdout
    assert json.loads(out) == state.format_move(move)
