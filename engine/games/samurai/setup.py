"""The figure-placement phase: Edo first, then cities (two different figures
each), then villages (one each), and never a dead end."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, product

from engine.core.errors import IllegalMove
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
        return IllegalMove(f"{name} is not a settlement", rule="figures go on settlements")
    if target.kind == "edo":
        return IllegalMove("Edo got one of each figure at the start", rule="Edo is set up first")
    if supply[figure] == 0:
        return IllegalMove(f"no {figure} is left to place", rule="figure supply")
    if open_slots(board, figures, space) == 0:
        return IllegalMove(f"{name} is full", rule="settlement slots")
    if target.kind == "village" and cities_open(board, figures):
        waiting = ", ".join(board.name(c) for c in cities_open(board, figures))
        return IllegalMove(
            f"villages come after every city is full (still open: {waiting})",
            rule="cities before villages",
        )
    if figure in figures.get(space, []):
        return IllegalMove(
            f"{name} already holds a {figure}", rule="two different figures in a city"
        )
    after = {s: list(f) for s, f in figures.items()}
    after.setdefault(space, []).append(figure)
    remaining = dict(supply)
    remaining[figure] -= 1
    if not can_complete(board, after, remaining):
        return IllegalMove(
            f"a {figure} on {name} would leave too few different figures to fill the cities",
            rule="the setup must stay completable",
        )
    return None
