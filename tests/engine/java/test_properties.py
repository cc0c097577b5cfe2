"""Random bot games checked along the way: legal moves are exactly the moves
the rules accept, texts round-trip, views keep hands and the deck order
secret, games end (by the last triple tile, or when no land tile fits any
more) and replay to the same state."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import Game
from engine.core.errors import IllegalMove
from engine.core.rng import SeededRandom
from engine.games.java import cards, notation
from engine.games.java.notation import (
    Festival,
)
from engine.games.java.state import JavaState
from engine.games.java.tiles import PALACE_VALUES
from tests.engine.java.helpers import CELLS, candidates
from tests.engine.properties import Chance, play_checked, trials_along

pytestmark = pytest.mark.heavy  # whole games: not in the quick tier


def accepted(state: JavaState, seat: int, move) -> bool:
    try:
        state.check(seat, move)
    except IllegalMove:
        return False
    return True


def check_complete(state: JavaState, seat: int) -> None:
    legal = state.legal_moves(seat)
    assert len(set(legal)) == len(legal)
    wanted = {m for m in candidates(state, seat) if accepted(state, seat, m)}
    listed = set(legal)
    # Card plays are listed by the hand; the candidates only try a few sets.
    assert wanted <= listed, sorted(map(notation.format_move, wanted - listed))[:5]
    for move in legal:
        assert accepted(state, seat, move), notation.format_move(move)


def scramble(state: JavaState, viewer: int | None) -> None:
    """The deck's order is nobody's to see; a hand only its holder's."""
    state.deck.reverse()
    for other in range(state.players):
        if other != viewer:
            state.hands[other] = ["P"] * len(state.hands[other])


def shuffle_chance(state: JavaState, rng: random.Random) -> None:
    """The deck's order and every later reshuffle of the discards."""
    rng.shuffle(state.deck)
    state.rng = SeededRandom(str(rng.random()), "festival cards")


def shown_cards(view: dict[str, Any], seat: int) -> Counter[Any]:
    """The cards a view shows: the seat's hand, the face-up card, the discards."""
    shown = Counter(("hand", c) for c in view["hand"] or [])
    shown += Counter(("discards", c) for c in view["discards"])
    shown[("faceup", view["faceup"])] += 1
    return Counter({item: n for item, n in shown.items() if item[1] != cards.UNKNOWN})


CHANCE = Chance(shuffle_chance, shown_cards, frozenset({"draw deck", "draw faceup"}))


def play_java(players: int, seed: str) -> Game:
    game = play_checked(
        "java",
        players,
        seed,
        scramble=scramble,
        sample=2,
        every=100,
        inspect=lambda game, seat: check_complete(game.state, seat),
    )
    assert game.state.triples == 0
    return game


@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(players=st.sampled_from([2, 3, 4]), seed=st.text(alphabet="qwxz", min_size=8, max_size=10))
@example(players=4, seed="zwqqxqxw")  # no triple fits any more with 5 left
def test_bot_games_end_replay_and_keep_secrets(players, seed):
    game = play_java(players, seed)
    assert game.state.result() is not None
    assert len(game.state.final_scored) == players


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.text(alphabet="qwxz", min_size=4, max_size=8))
def test_a_trial_conceals_every_draw(players, seed):
    """Drawn cards, the face-up card's successor and reshuffles stay unknown in a trial."""
    trials_along("java", players, seed, CHANCE, every=4, sample=2, max_moves=250)


space = st.sampled_from(CELLS)
card = st.sampled_from(["M", "D", "P", "MD", "MP", "DP"])


@given(
    a=space,
    b=space,
    value=st.sampled_from(PALACE_VALUES),
    played=st.lists(card, min_size=1, max_size=4),
)
def test_notation_round_trips(a, b, value, played):
    for text in (
        f"move {a} {b}",
        f"enter {a}",
        f"leave {a}",
        f"build {a} {value}",
        f"enlarge {a} {value}",
        f"irrigate {a}",
        f"rice {a}",
        f"village {a}",
        f"festival {a} {' '.join(played)}",
        f"play {' '.join(played)}",
        "draw faceup",
        "draw deck",
        "token",
        "agree",
        "pass",
        "end",
    ):
        move = notation.parse(text)
        assert notation.parse(notation.format_move(move)) == move
        assert notation.format_move(notation.parse(notation.format_move(move))) == (
            notation.format_move(move)
        )


def test_tile_notation_is_canonical_and_forgiving():
    move = notation.parse("Triple g3, f4 F3  Village=f4")
    assert notation.format_move(move) == "triple F3 F4 G3 village=F4"
    assert notation.parse("festival e5 mask+drum m") == Festival("E5", ("M", "MD"))


def test_malformed_moves_say_what_is_wrong():
    for text, words in (
        ("triple F3 F4 G3", "village="),
        ("double F3 F4 village=G5", "not one of"),
        ("move Z9 F3", "not a space"),
        ("build F3 5", "2, 4, 6, 8 or 10"),
        ("play X", "not a festival card"),
        ("jump F3", "unknown move"),
    ):
        try:
            notation.parse(text)
        except IllegalMove as exc:
            assert words in exc.reason, (text, exc.reason)
        else:
            raise AssertionError(text)
