"""Properties over random bot games: replay, notation round trip, legal moves
that pass the check, and views that never leak another seat's secrets."""

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, IllegalMove
from engine.games.samurai.state import SamuraiState
from engine.games.samurai.tiles import COLOUR_SET, UNKNOWN
from tests.engine.properties import Chance, play_checked, trials_along

pytestmark = pytest.mark.heavy  # whole games: not in the quick tier


GAMES = settings(max_examples=6, deadline=None)
seeds = st.text(alphabet="abcdefgh0123456789", min_size=1, max_size=8)
players = st.integers(min_value=2, max_value=4)


def _scramble_secrets(state: SamuraiState, owner: int) -> None:
    """Change everything behind `owner`'s screen, keeping the public sizes."""
    hand = state.hands[owner]
    other = "ronin" if hand[:1] == ["figure-exchange"] else "figure-exchange"
    state.hands[owner] = [other] * len(hand)
    state.captured[owner] = {f: c + 7 for f, c in state.captured[owner].items()}
    if state.choices[owner] is not None:
        state.choices[owner] = ("ship1", "ship1", "ship2", "ronin", "samurai3")


def scramble(state: SamuraiState, viewer: int | None) -> None:
    """Not even its owner sees the order of a pile; the rest is the owner's."""
    for owner in range(state.players):
        state.piles[owner].reverse()
        if owner != viewer:
            _scramble_secrets(state, owner)


def typed_moves_are_listed(rng: random.Random):
    """A tile typed on a space, when the rules take it, is a listed move."""

    def inspect(game: Game, seat: int) -> None:
        state: SamuraiState = game.state
        if state.phase != "play":
            return
        text = f"{rng.choice(COLOUR_SET)} {rng.choice(sorted(state.board.by_name))}"
        try:
            move = state.parse_move(seat, text)
        except IllegalMove:
            return
        assert move in state.legal_moves(seat)

    return inspect


@GAMES
@given(players, seeds)
def test_bot_games_end_replay_and_keep_secrets(n, seed):
    inspect = typed_moves_are_listed(random.Random(seed))
    game = play_checked("samurai", n, seed, scramble=scramble, sample=25, inspect=inspect)
    assert game.state.result().reason in {
        "a figure type has left the board",
        "four or more figures set aside",
        "no tiles left",
        "no seat can play a tile",
    }


def shuffle_piles(state: SamuraiState, rng: random.Random) -> None:
    for pile in state.piles:
        rng.shuffle(pile)


def shown_tiles(view: dict[str, Any], seat: int) -> Counter[Any]:
    """The tiles behind the screens a view opens: hands and piles."""
    shown: Counter[Any] = Counter()
    for owner, entry in enumerate(view["seats"]):
        shown += Counter(("hand", owner, c) for c in entry.get("hand", []) if c != UNKNOWN)
        shown += Counter(("pile", owner, c) for c in entry.get("pile_tiles", []) if c != UNKNOWN)
    return shown


@settings(max_examples=4, deadline=None)
@given(players, seeds)
def test_a_trial_conceals_the_tiles_drawn_from_the_pile(n, seed):
    """The end of a turn refills the hand from the pile; a trial shows the
    new tiles as unknown, whatever the piles' order."""
    chance = Chance(shuffle_piles, shown_tiles, frozenset({"end"}))
    trials_along("samurai", n, seed, chance, every=2, sample=2)
