"""The figure-placement phase: Edo first, then cities (two different figures
each), then villages (one each), and never a dead end."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, product

from engine.core.errors import IllegalMove
from engine.games.samurai import messages as m
from engine.games.samurai.board import Board
from engine.games.samurai.tiles import FIGURES

Figures = Mapping[int, list[str]]


def open_slots(board: Board, figures: Figures, space: int) -> int:
    return board.space(space).slots - len(figures.get(space, []))


def cities_open(board: Board, figures: Figures) -> list[int]:
    return [c for c in board.cities if open_slots(board, figures, c) > 0]


def setup_complete(board: Board, figures: Figures) -> bool:
    return all(open_slots(board, figures, s) == 0 for s in board.settlements)


def can_complete(board: Board, figures: Figures, supply: Mapping[str, int]) -> bool:
    """Whether the supply can still fill every city with different figures;
    villages take any figure and the supply always equals the open slots."""
    options = []
    for city in cities_open(board, figures):
        free = [f for f in FIGURES if f not in figures.get(city, [])]
        options.append(list(combinations(free, open_slots(board, figures, city))))
    for choice in product(*options):
        used = [f for picked in choice for f in picked]
        if all(used.count(f) <= supply[f] for f in FIGURES):
            return True
    return False


def placement_error(
    board: Board, figures: Figures, supply: Mapping[str, int], figure: str, space: int
) -> IllegalMove | None:
    """Why `figure` may not go on `space` now, or None when it may."""
    name = board.name(space)
    target = board.space(space)
    if not target.is_settlement:
        return IllegalMove.of("samurai.not_settlement", rule=m.ON_SETTLEMENTS, space=name)
    if target.kind == "edo":
        return IllegalMove.of("samurai.edo_set", rule=m.EDO_FIRST)
    if supply[figure] == 0:
        return IllegalMove.of("samurai.no_figure_left", rule=m.FIGURE_SUPPLY, figure=figure)
    if open_slots(board, figures, space) == 0:
        return IllegalMove.of("samurai.full", rule=m.SLOTS, space=name)
    if target.kind == "village" and cities_open(board, figures):
        waiting = ", ".join(board.name(c) for c in cities_open(board, figures))
        return IllegalMove.of("samurai.cities_first", rule=m.CITIES_FIRST, spaces=waiting)
    if figure in figures.get(space, []):
        return IllegalMove.of(
            "samurai.figure_twice", rule=m.TWO_DIFFERENT, space=name, figure=figure
        )
    after = {s: list(f) for s, f in figures.items()}
    after.setdefault(space, []).append(figure)
    remaining = dict(supply)
    remaining[figure] -= 1
    if not can_complete(board, after, remaining):
        return IllegalMove.of(
            "samurai.not_completable", rule=m.COMPLETABLE, figure=figure, space=name
        )
    return None
