"""Java's bot levels: complete legal games, a seat's view kept by the re-deal,
choices blind to what the seat cannot see, and the same move everywhere."""

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from engine import Game
from engine.bots import make_bot
from engine.bots.match import play_match_game
from engine.core.rng import SeededRandom
from engine.games.java.state import JavaState
from engine.games.java.strategy import JavaStrategy
from tests.engine.bot_tables import MIXED_TABLES, table_id

pytestmark = pytest.mark.heavy  # whole games: not in the quick tier

# Budgets shrunk for speed (the levels' own are in JavaStrategy.budgets):
# one-wide beams; whole games skip strong's answers, which the fairness and
# reproducibility tests keep.
SMALL = {"medium": 1, "strong": 1, "strong_replies": 1}
FAST = {**SMALL, "strong_replies": 0}


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(JavaStrategy, "budgets", SMALL)


@pytest.fixture
def fast_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(JavaStrategy, "budgets", FAST)


@pytest.mark.parametrize("bots", MIXED_TABLES, ids=table_id)
def test_every_level_plays_a_complete_legal_game(fast_budgets: None, bots: tuple[str, ...]):
    played = play_match_game("java", bots, f"levels-{len(bots)}")  # push checks every move
    assert played.game.state.is_over()
    assert all(played.seconds)  # every seat decided


def positions(seed: str, plies: int, every: int) -> list[Game]:
    """Positions along an easy-bot game, including festival auctions when they come."""
    game = Game.new("java", ["a", "b", "c"], seed)
    found = []
    for ply in range(plies):
        state = game.state
        seat = min(state.to_act())
        if ply % every == 0 or state.auction is not None:
            found.append(game.copy())
        game.push(seat, make_bot("easy", "java", f"{seed}/{ply}").choose(state, seat))
    return found


def unseen_pool(state: JavaState, seat: int) -> Counter[str]:
    others = (c for s in range(state.players) if s != seat for c in state.hands[s])
    return Counter([*state.deck, *others])


def test_the_redeal_keeps_the_seat_view_and_the_pool():
    for game in positions("redeal", 60, 15):
        for seat in range(game.state.players):
            state = game.state.copy()
            before, pool = state.view(seat), unseen_pool(state, seat)
            sizes = [len(h) for h in state.hands]
            state.redeal_unseen(seat, SeededRandom("another deal"))
            assert state.view(seat) == before
            assert unseen_pool(state, seat) == pool
            assert [len(h) for h in state.hands] == sizes


def test_the_redeal_does_change_what_is_hidden():
    state = JavaState.new(3, "hidden")
    others = [list(state.deck), state.hands[1], state.hands[2]]
    dealt = [state.copy() for _ in range(4)]
    for i, copy in enumerate(dealt):
        copy.redeal_unseen(0, SeededRandom(f"deal {i}"))
    assert any([list(c.deck), c.hands[1], c.hands[2]] != others for c in dealt)


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_a_bot_never_looks_at_what_its_seat_cannot_see(small_budgets: None, level: str):
    for game in positions("fair", 90, 20):
        state = game.state
        seat = min(state.to_act())
        move = make_bot(level, "java", "same key").choose(state, seat)
        for deal in range(2):
            other = state.copy()
            other.redeal_unseen(seat, SeededRandom(f"other deal {deal}"))
            other.rng = SeededRandom(f"other chance {deal}")
            assert make_bot(level, "java", "same key").choose(other, seat) == move


CHOOSE = """
import json, sys
from engine import Game
from engine.bots import make_bot
from engine.games.java.strategy import JavaStrategy
from tests.engine.bot_tables import MIXED_TABLES, table_id

JavaStrategy.budgets = json.loads(sys.argv[1])
game = Game.new("java", ["a", "b"], "again")
moves = []
for ply in range(24):
    state = game.state
    seat = min(state.to_act())
    move = make_bot(sys.argv[2], "java", f"again/{ply}").choose(state, seat)
    moves.append(state.format_move(move))
    game.push(seat, move)
print(json.dumps(moves))
"""


@pytest.mark.system
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_same_key_and_position_give_the_same_move_in_any_process(level: str):
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", CHOOSE, json.dumps(SMALL), level],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1]
    assert len(runs[0]) == 24
