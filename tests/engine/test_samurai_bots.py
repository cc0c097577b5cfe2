"""Samurai's bots: complete legal games at every level, a search blind to what
its seat cannot see, the same move for the same key in any process, and the
parts of `strong`: whole turns, the hands to fear, answers to its turns.

`strong` plays here with a small budget (`SMALL_TURNS`, set on the strategy
module the level reads it from) so the file stays fast; the real budget is
measured with `python -m engine match`.
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
from engine.core.game import Game
from engine.core.rng import SeededRandom
from engine.games.samurai import strategy as samurai_strategy
from engine.games.samurai.evaluation import PLAIN, SHARP, add_stakes
from engine.games.samurai.notation import EndTurn
from engine.games.samurai.redeal import strongest_hands
from engine.games.samurai.state import SamuraiState
from engine.games.samurai.strategy import SamuraiStrategy
from engine.games.samurai.tiles import FIGURES, kind
from engine.games.samurai.turns import plan_turn
from tests.engine.bot_tables import MIXED_TABLES, table_id
from tests.engine.samurai.helpers import clear_board, game_in_play, put_figures

pytestmark = pytest.mark.heavy  # whole games: not in the quick tier

# Beam, turns answered, deals, answering beam.
SMALL_TURNS = {"TURN_WIDTH": 2, "TURNS_KEPT": 2, "REPLY_DEALS": 2, "REPLY_WIDTH": 1}


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SMALL_TURNS.items():
        monkeypatch.setattr(samurai_strategy, name, value)


def position(players: int, seed: str, plies: int) -> Game:
    """A game after `plies` moves of random bots (fewer if it ends first)."""
    game = Game.new("samurai", [f"p{i}" for i in range(players)], seed)
    for ply in range(plies):
        if game.state.is_over():
            break
        seat = min(game.state.to_act())
        game.push(seat, make_bot("random", "samurai", f"{seed}/{ply}").choose(game.state, seat))
    return game


# (players, plies): the secret opening, the figures, and play at every player
# count. The games are played when a test first asks, not while collecting.
POSITIONS = [(players, plies) for players in (2, 3, 4) for plies in (1, 30, 45, 60)]
IN_PLAY = [(p, n) for p, n in POSITIONS if n >= 45 or (p, n) in {(2, 30), (3, 30)}]


@cache
def judged(players: int, plies: int) -> tuple[int, SamuraiState]:
    """The seat to judge for and the state after `plies` moves of random bots."""
    state = position(players, f"pos-{players}-{plies}", plies).state
    assert not state.is_over()
    return min(state.to_act()), state


@pytest.fixture
def seat(players: int, plies: int) -> int:
    return judged(players, plies)[0]


@pytest.fixture
def state(players: int, plies: int) -> SamuraiState:
    """A copy, so no test sees another's changes."""
    return judged(players, plies)[1].copy()


@pytest.mark.usefixtures("small_budgets")
@pytest.mark.parametrize("bots", MIXED_TABLES, ids=table_id)
def test_every_level_plays_a_complete_legal_game(bots: tuple[str, ...]) -> None:
    played = play_match_game("samurai", bots, f"complete-{len(bots)}")
    assert played.game.state.is_over()
    assert all(played.seconds), "every seat decided"


@pytest.mark.parametrize(("players", "plies"), POSITIONS)
def test_strategy_candidates_are_legal(players: int, seat: int, state: SamuraiState) -> None:
    strategy = SamuraiStrategy()
    candidates = strategy.candidates(state, seat)
    assert candidates
    legal = state.legal_moves(seat)
    assert all(move in legal for move in candidates)


@pytest.mark.parametrize(("players", "plies"), POSITIONS)
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
@pytest.mark.parametrize(("players", "plies"), POSITIONS)
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
from engine.bots import make_bot
from engine.core.game import Game
from engine.core.record import Record
state = Game.from_record(Record.loads(sys.stdin.read())).state
seat = min(state.to_act())
print(state.format_move(make_bot("strong", "samurai", "k").choose(state, seat)))
"""


@pytest.mark.system
def test_a_fresh_process_with_another_hash_seed_makes_the_same_move() -> None:
    game = position(2, "fresh", 40)
    state = game.state
    here = state.format_move(make_bot("strong", "samurai", "k").choose(state, min(state.to_act())))
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


@pytest.mark.parametrize(("players", "plies"), IN_PLAY)
def test_whole_turns_end_the_turn_each_once_best_first(
    players: int, seat: int, state: SamuraiState
) -> None:
    plans = plan_turn(SamuraiStrategy(SHARP), state, seat, 3)
    assert plans
    assert [p.value for p in plans] == sorted((p.value for p in plans), reverse=True)
    assert all(p.first in state.legal_moves(seat) for p in plans)
    ends = []
    for plan in plans:
        end = plan.end
        assert end.is_over() or not end.played, "the turn was ended"
        laid = {s: t for s, t in end.tiles.items() if state.tiles.get(s) != t}
        normal = [t for s, (owner, t) in laid.items() if owner == seat and not kind(t).fast]
        assert len(normal) <= 1, "a turn holds one normal tile at most"
        ends.append((sorted(end.tiles.items()), sorted(map(tuple, end.figures.values()))))
    assert len(ends) == len(set(map(repr, ends))), "the same tiles in another order are one turn"


@pytest.mark.parametrize(("players", "plies"), POSITIONS)
def test_the_hands_to_fear_are_the_strongest_unplayed_tiles(
    players: int, seat: int, state: SamuraiState
) -> None:
    feared = state.copy()
    strongest_hands(feared, seat)
    assert feared.view(seat) == state.view(seat)
    for other in range(players):
        unplayed = Counter(state.hands[other] + state.piles[other])
        assert Counter(feared.hands[other] + feared.piles[other]) == unplayed
        assert len(feared.hands[other]) == len(state.hands[other])
        if other == seat:
            assert feared.hands[seat] == state.hands[seat]
        elif feared.piles[other]:
            weakest_held = min(kind(c).strength for c in feared.hands[other])
            assert weakest_held >= max(kind(c).strength for c in feared.piles[other])
    redealt = state.copy()
    redealt.redeal_unseen(seat, SeededRandom("another deal"))
    strongest_hands(redealt, seat)
    assert [sorted(h) for h in redealt.hands] == [sorted(h) for h in feared.hands]


def test_sharp_judgement_counts_an_open_lead_by_its_margin_alone() -> None:
    """A lead of 2 with 3 empty land spaces around: 2 / (2 + 4 * 3) under
    `SHARP`; `PLAIN` adds its floor of 0.3 to 2 / (2 + 2.5 * 3)."""
    totals = {f: [2, 0] for f in FIGURES}
    for judgement, expected in ((SHARP, 2 / 14), (PLAIN, 0.3 + 2 / 9.5)):
        projection = [dict.fromkeys(FIGURES, 0.0) for _ in range(2)]
        add_stakes(projection, totals, 3, ["rice"], 1.0, judgement)
        assert projection[0]["rice"] == pytest.approx(expected)
        assert projection[1]["rice"] == 0.0


def test_strong_leaves_no_lead_the_next_seat_can_take() -> None:
    """The only buddha sits in O8, whose land is O9 and P8. A samurai 3 beside
    it looks best move by move, but the other seat's buddha 4 on the last
    space takes the buddha and ends the game: `easy` and `medium` play into
    it, `strong`, answering its turn with the other seat's strongest tiles,
    plays elsewhere."""
    state = game_in_play(2).state
    clear_board(state)
    state.tiles.clear()
    put_figures(state, {"O8": ["buddha"], "O12": ["rice"], "N15": ["helmet"]})
    state.current = 0
    state.hands = [
        ["buddha2", "samurai3", "samurai1"],
        ["helmet2", "buddha4", "rice2", "samurai1", "ship1"],
    ]
    state.piles = [[], []]
    exposed = {state.board.by_name[name] for name in ("O9", "P8")}
    moves = {level: make_bot(level, "samurai", "k").choose(state, 0) for level in LEVELS[1:]}
    assert moves["easy"].space in exposed
    assert moves["medium"].space in exposed
    assert moves["strong"].space not in exposed
    assert not isinstance(moves["strong"], EndTurn)


def test_the_same_tiles_in_another_order_are_one_whole_turn() -> None:
    state = game_in_play(2).state
    state.current = 0
    state.hands[0] = ["ship1", "ship2", "ronin"]  # fast tiles, any number a turn
    plans = plan_turn(SamuraiStrategy(SHARP), state, 0, 50)
    ends = [repr(sorted(p.end.tiles.items())) for p in plans]
    assert len(ends) == len(set(ends))
    assert any(len(p.end.tiles) == 3 for p in plans), "some turns lay all three tiles"
