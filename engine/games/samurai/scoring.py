"""The end of the game: shogunates, eliminations and every tie-break."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.core.messages import words
from engine.core.state import Result
from engine.games.samurai.tiles import FIGURES

Captured = Sequence[Mapping[str, int]]

# How a game ends, as its result says it (game words: a server translates them).
TYPE_GONE, FOUR_ASIDE, NO_TILES, NO_PLAY = words(
    "a figure type has left the board",
    "four or more figures set aside",
    "no tiles left",
    "no seat can play a tile",
)


def shogunates(captured: Captured) -> list[list[str]]:
    """For each seat, the types it holds strictly more of than every other seat."""
    result: list[list[str]] = [[] for _ in captured]
    for figure in FIGURES:
        counts = [c[figure] for c in captured]
        best = max(counts)
        if best > 0 and counts.count(best) == 1:
            result[counts.index(best)].append(figure)
    return result


def _ranked(seats: list[int], key: Callable[[int], tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Best first; seats equal on every criterion share a place."""
    groups: list[tuple[int, ...]] = []
    for value in sorted({key(s) for s in seats}, reverse=True):
        groups.append(tuple(s for s in seats if key(s) == value))
    return groups


def final_result(captured: Captured, reason: str) -> Result:
    """Two shogunates win at once; otherwise seats without one are out and the
    shoguns compare the figures outside their shogunate, then all their figures;
    with no shogun at all, most figures wins."""
    shoguns = shogunates(captured)
    totals = [sum(c[f] for f in FIGURES) for c in captured]
    outside = [totals[s] - sum(captured[s][f] for f in shoguns[s]) for s in range(len(captured))]
    scores = tuple(
        {
            **{f: captured[s][f] for f in FIGURES},
            "total": totals[s],
            "shogun": shoguns[s],
            "outside_shogunate": outside[s],
        }
        for s in range(len(captured))
    )
    seats = list(range(len(captured)))
    with_shogunate = [s for s in seats if shoguns[s]]
    if not with_shogunate:
        ranking = _ranked(seats, lambda s: (totals[s],))
        return Result(tuple(ranking), scores, reason)
    double = [s for s in with_shogunate if len(shoguns[s]) >= 2]
    single = [s for s in with_shogunate if s not in double]
    ranking = [tuple(double)] if double else []
    ranking += _ranked(single, lambda s: (outside[s], totals[s]))
    unranked = tuple(s for s in seats if not shoguns[s])
    return Result(tuple(ranking), scores, reason, unranked)
