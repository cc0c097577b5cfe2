"""Random bot games of Taluva in every player count and variant, checked at every step."""

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game
from engine.games.taluva.notation import format_move, parse_move
from engine.games.taluva.state import TaluvaState
from engine.games.taluva.tiles import Tile
from tests.engine.properties import Chance, play_checked, trials_along

pytestmark = pytest.mark.heavy  # whole games: not in the quick tier


SETUPS = [
    (2, {}),
    (2, {"tiles": 36}),
    (3, {}),
    (3, {"ranking": True}),
    (4, {}),
    (4, {"teams": True}),
]


def scramble(state: TaluvaState, viewer: int | None) -> None:
    """The pile's order is nobody's to see; the tile in hand only its holder's."""
    state.pile.reverse()
    if viewer != state.current and state.drawn is not None:
        other = (
            Tile("lake", "lake") if state.drawn != Tile("lake", "lake") else Tile("rock", "sand")
        )
        state.drawn = other


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.text(min_size=1, max_size=8))
def test_bot_games_end_replay_and_keep_secrets(setup, seed):
    players, options = setup
    game = play_checked("taluva", players, seed, options, scramble=scramble)
    assert game.state.result() is not None


def test_only_the_current_player_sees_the_drawn_tile():
    game = Game.new("taluva", ["a", "b", "c"], "secret")
    own = game.view(0)["state"]
    assert own["tile_in_hand"] is not None
    for seat in (1, 2, None):
        other = game.view(seat)["state"]
        assert other["tile_in_hand"] is None and other["tile_drawn"]
        assert {k: v for k, v in other.items() if k != "tile_in_hand"} == {
            k: v for k, v in own.items() if k != "tile_in_hand"
        }
    assert "pile" not in json.dumps(own)


spaces = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


@given(
    verb=st.sampled_from(["hut", "temple", "tower"]),
    space=spaces,
    terrain=st.sampled_from(["jungle", "clearing", "sand", "rock", "lake"]),
)
def test_notation_round_trips(verb, space, terrain):
    for text in (f"{verb} {space[0]},{space[1]}", f"extend {space[0]},{space[1]} {terrain}"):
        assert format_move(parse_move(text)) == text
        assert parse_move(format_move(parse_move(text))) == parse_move(text)


def shuffle_stack(state: TaluvaState, rng: random.Random) -> None:
    rng.shuffle(state.pile)


def shown_tile(view: dict[str, Any], seat: int) -> Counter[Any]:
    tile = view["tile_in_hand"]
    return Counter([(tile["left"], tile["right"])] if tile else [])


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.text(min_size=1, max_size=8))
def test_a_trial_conceals_the_next_tile_from_the_stack(setup, seed):
    """After a turn the next player draws from the stack: a trial never holds that tile."""
    players, options = setup
    chance = Chance(shuffle_stack, shown_tile)
    trials_along("taluva", players, seed, chance, options, every=2, sample=2)
