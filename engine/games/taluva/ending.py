"""How a Taluva game ends and who ranks where, in the base game and both variants."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from engine.games.taluva.island import HUT, TEMPLE, TOWER

PIECES = {HUT: 20, TEMPLE: 3, TOWER: 2}
TEAMS_OF_FOUR = ((0, 2), (1, 3))


def built(stock: dict[str, int]) -> dict[str, int]:
    """Buildings placed so far; crushed huts stay counted, as the rules say."""
    return {kind: PIECES[kind] - stock[kind] for kind in PIECES}


def kinds_completed(stock: dict[str, int]) -> int:
    return sum(1 for kind in PIECES if stock[kind] == 0)


def tiebreak(stock: dict[str, int]) -> tuple[int, int, int]:
    """Most temples, then towers, then huts."""
    b = built(stock)
    return b[TEMPLE], b[TOWER], b[HUT]


def rank_groups(
    seats: Sequence[int], key: Callable[[int], tuple[Any, ...]]
) -> list[tuple[int, ...]]:
    """Seats ordered best first by `key`, equal keys grouped as ties."""
    ordered = sorted(seats, key=key, reverse=True)
    return [tuple(sorted(group)) for _, group in groupby(ordered, key=key)]


def team_of(seat: int) -> tuple[int, int]:
    return next(team for team in TEAMS_OF_FOUR if seat in team)


def team_has_won(stocks: Sequence[dict[str, int]], team: tuple[int, int]) -> bool:
    """One member placed two whole kinds and the partner one whole kind."""
    a, b = (kinds_completed(stocks[s]) for s in team)
    return (a >= 2 and b >= 1) or (b >= 2 and a >= 1)
