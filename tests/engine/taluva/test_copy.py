"""A Taluva state's own copy (field by field, cells and tiles shared) is as
good as a deep one: equal, and playing on either never changes the other."""

from __future__ import annotations

import pickle

import pytest

from engine.bots.random_play import RandomBot
from engine.games.taluva.island import Island
from tests.engine.taluva.helpers import position


def deep(value):
    return pickle.loads(pickle.dumps(value))


@pytest.mark.parametrize("plies", [0, 7, 20])
def test_a_copy_is_equal_and_plays_on_apart_from_its_original(plies):
    original = position(f"copy-{plies}", plies, players=3)
    original.island.legal_placements()  # the placements worked out, to be copied too
    before = deep(original)
    copied = original.copy()
    assert copied == original and copied.island == original.island
    mover = RandomBot("copy")
    for _ in range(12):
        if copied.is_over():
            break
        seat = copied.current
        copied.push(seat, mover.choose(copied, seat))
    assert copied != original
    assert original == before
    assert original.island.legal_placements() == before.island.legal_placements()


def test_a_copy_holds_no_list_dict_or_set_of_its_original():
    state = position("apart", 15, players=3)
    state.island.legal_placements()
    copied = state.copy()
    for name, value in vars(state).items():
        if isinstance(value, list | dict | set | Island):
            assert vars(copied)[name] is not value, name
    for name, value in vars(state.island).items():
        if isinstance(value, list | dict | set) and name != "_settlements":
            assert vars(copied.island)[name] is not value, name
    assert all(isinstance(stock, dict) for stock in copied.stocks)
    assert all(a is not b for a, b in zip(copied.stocks, state.stocks, strict=True))
