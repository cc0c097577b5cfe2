"""Setting up Java positions the way a rulebook figure does: tiles and
developers of our choosing, laid through the real stacking rules."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.games.java.land import Land, Palace
from engine.games.java.notation import PlaceTile, parse
from engine.games.java.state import JavaState


def lay(land: Land, *texts: str) -> Land:
    """Lay tiles from their notation ('triple G8 G9 H8 village=G8'), each checked."""
    for text in texts:
        move = parse(text)
        assert isinstance(move, PlaceTile), text
        problem = land.tile_problem(move.cells)
        assert problem is None, f"{text}: {problem}"
        assert not land.joins_cities(move.kind, move.cells, move.village)
        land.lay(move.kind, move.cells, move.village)
    return land


def game(players: int = 2, seat: int = 0, *tiles: str) -> JavaState:
    """A fresh game whose turn belongs to `seat`, with tiles already on the board."""
    state = JavaState.new(players, "rules")
    state.current = seat
    lay(state.land, *tiles)
    return state


def put(state: JavaState, seat: int, *cells: str) -> None:
    """Developers standing there from earlier turns."""
    for cell in cells:
        assert cell in state.land.level and cell not in state.land.developers
        state.land.developers[cell] = seat
        state.off_board[seat] -= 1


def palace(state: JavaState, cell: str, value: int, festival: bool = False) -> None:
    """A palace built in an earlier turn."""
    state.land.palaces[cell] = Palace([value], festival=festival, changed_turn=0)
    state.palace_supply[value] -= 1


def hand(state: JavaState, seat: int, *cards: str) -> None:
    state.hands[seat] = list(cards)


def play(state: JavaState, seat: int, *texts: str) -> None:
    for text in texts:
        state.play(seat, text)


def refused(state: JavaState, seat: int, text: str, rule: str) -> IllegalMove:
    """The move is refused, naming `rule`."""
    with pytest.raises(IllegalMove) as info:
        state.play(seat, text)
    assert info.value.rule == rule, info.value
    return info.value
