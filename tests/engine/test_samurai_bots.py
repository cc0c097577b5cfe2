"""Samurai's bots: complete legal games at every level, a search blind to what
its seat cannot see, and the same move for the same key in any process.

Searching levels play here with small budgets (`SMALL_BUDGETS`, set on the
strategy class the levels read them from) so the file stays fast; the real
budgets are measured with `python -m engine match`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from functools import cache

import pytest

from engine.bots import LEVELS, make_bot
from engine.bots.match import play_match_game
from engine.bots.search import SearchBot
from engine.core.game import Game
from engine.core.rng import SeededRandom
from engine.games.samurai.state import SamuraiState
from engine.games.samurai.strategy import SamuraiStrategy

SMALL_BUDGETS = {"medium": 4, "strong": 8}


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SamuraiStrategy, "budgets", SMALL_BUDGETS)


def position(players: int, seed: str, plies: int) -> Game:
    """A game after `plies` moves of random bots (fewer if it ends first)."""
    game = Game.new("samurai", [f"p{i}" for i in range(players)], seed)
    for ply in range(plies):
        if game.state.is_over():
            break
        seat = min(game.state.to_act())
        game.push(seat, make_bot("random", "samurai", f"{seed}/{ply}").choose(game.state, seat))
    return game


@cache
def positions() -> list[tuple[int, int, SamuraiState]]:
    """(players, seat to judge for, state): the secret opening, the figures,
    and play at every player count."""
    found = []
    for players in (2, 3, 4):
        for plies in (1, 30, 45, 60):
            state = position(players, f"pos-{players}-{plies}", plies).state
            if not state.is_over():
                found.append((players, min(state.to_act()), state))
    return found


@pytest.mark.usefixtures("small_budgets")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_complete_legal_game(level: str, players: int) -> None:
    bots = [level] + ["random"] * (players - 1)
    played = play_match_game("samurai", bots, f"complete-{level}-{players}")
    assert played.game.state.is_over()
    assert played.seconds[0], "the bot made decisions"


@pytest.mark.parametrize(("players", "seat", "state"), positions())
def test_strategy_candidates_are_legal(players: int, seat: int, state: SamuraiState) -> None:
    strategy = SamuraiStrategy()
    candidates = strategy.candidates(state, seat)
    assert candidates
    legal = state.legal_moves(seat)
    assert all(move in legal for move in candidates)
    assert strategy.rollout_move(state, seat, SeededRandom("r")) in legal


@pytest.mark.parametrize(("players", "seat", "state"), positions())
def test_redeal_keeps_what_the_seat_sees_and_the_tiles(
    players: int, seat: int, state: SamuraiState
) -> None:
    redealt = state.copy()
    redealt.redeal_unseen(seat, SeededRandom("another deal"))
    assert redealt.view(seat) == state.view(seat)
    assert redealt.hands[seat] == state.hands[seat]
    for other in range(players):
        assert len(redealt.hands[other]) == len(state.hands[other])
        assert len(redealt.piles[other]) == len(state.piles[other])
        assert Counter(redealt.hands[other] + redealt.piles[other]) == Counter(
            state.hands[other] + state.piles[other]
        )
    assert redealt.pile_rngs != state.pile_rngs


def test_redeal_changes_what_is_hidden() -> None:
    state = position(2, "hidden", 30).state
    assert state.phase == "play"
    redealt = state.copy()
    redealt.redeal_unseen(0, SeededRandom("another deal"))
    assert (redealt.hands[1], redealt.piles[0]) != (state.hands[1], state.piles[0])


@pytest.mark.usefixtures("small_budgets")
@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
@pytest.mark.parametrize(("players", "seat", "state"), positions())
def test_a_bot_never_sees_what_its_seat_cannot(
    level: str, players: int, seat: int, state: SamuraiState
) -> None:
    for deal in ("one", "two"):
        redealt = state.copy()
        redealt.redeal_unseen(seat, SeededRandom(deal))
        redealt.seed = f"another seed {deal}"
        real = make_bot(level, "samurai", "key").choose(state, seat)
        assert make_bot(level, "samurai", "key").choose(redealt, seat) == real


@pytest.mark.usefixtures("small_budgets")
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_key_gives_the_same_move(level: str) -> None:
    state = position(3, "again", 40).state
    seat = min(state.to_act())
    moves = {repr(make_bot(level, "samurai", "k").choose(state, seat)) for _ in range(2)}
    assert len(moves) == 1


FRESH_PROCESS = """
import sys
from engine.bots.search import SearchBot
from engine.core.game import Game
from engine.core.record import Record
from engine.games.samurai.strategy import SamuraiStrategy
state = Game.from_record(Record.loads(sys.stdin.read())).state
seat = min(state.to_act())
print(state.format_move(SearchBot("k", SamuraiStrategy(), 12).choose(state, seat)))
"""


@pytest.mark.system
def test_a_fresh_process_with_another_hash_seed_makes_the_same_move() -> None:
    game = position(2, "fresh", 40)
    state = game.state
    here = state.format_move(
        SearchBot("k", SamuraiStrategy(), 12).choose(state, min(state.to_act()))
    )
    for hash_seed in ("1", "12345"):
        out = subprocess.run(
            [sys.executable, "-c", FRESH_PROCESS],
            input=game.to_record().dumps(),
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == here
