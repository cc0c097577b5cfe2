"""Setting up Java positions the way a rulebook figure does: tiles and
developers of our choosing, laid through the real stacking rules."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.games.java.board import FOOTPRINTS, SPACES, sort_spaces
from engine.games.java.land import Land, Palace
from engine.games.java.notation import (
    Agree,
    Build,
    Draw,
    EndTurn,
    Enlarge,
    Enter,
    Festival,
    Irrigate,
    Leave,
    MoveDeveloper,
    Pass,
    PlaceTile,
    PlayCards,
    TakeToken,
    parse,
)
from engine.games.java.state import JavaState
from engine.games.java.tiles import PALACE_VALUES, TILE_KINDS, TILE_SIZE


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


def festival_position() -> JavaState:
    """A palace at E5 whose city holds developers of seats 0 and 1; face-up M."""
    state = game(3, 0, "village E5", "village E6", "village D5")
    palace(state, "E5", 4)
    put(state, 0, "E6")
    put(state, 1, "D5")
    state.faceup = "M"
    return state


CELLS = sort_spaces(SPACES)
CARD_SETS = [(), ("M",), ("D",), ("MD",), ("M", "M"), ("D", "P"), ("MD", "DP", "P")]


def candidates(state: JavaState, seat: int) -> list:
    """A superset of the legal moves, built without the rules."""
    found: list = [EndTurn(), TakeToken(), Draw("faceup"), Draw("deck"), Agree(), Pass()]
    for kind in TILE_KINDS:
        for cells in FOOTPRINTS[TILE_SIZE[kind]]:
            for village in cells if len(cells) > 1 else (None,):
                found.append(PlaceTile(kind, cells, village))
    for cell in CELLS:
        found += [Enter(cell), Leave(cell), Irrigate(cell)]
        found += [Build(cell, v) for v in PALACE_VALUES] + [Enlarge(cell, v) for v in PALACE_VALUES]
        found += [Festival(cell, c) for c in CARD_SETS[1:]]
    for source, owner in state.land.developers.items():
        if owner == seat:
            found += [MoveDeveloper(source, target) for target in CELLS]
    found += [PlayCards(c) for c in CARD_SETS[1:]]
    return found
