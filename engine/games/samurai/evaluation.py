"""How a bot judges a Samurai position before the end: the figures each seat
has taken plus those it leads for on the board, weighed by how safe the lead
is, turned into majorities of each figure type.

A tile changes the outlook only of the settlements next to it, so moves are
judged by re-weighing those settlements alone (`Outlook.with_tile`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from engine.games.samurai.board import board_for
from engine.games.samurai.tiles import FIGURES, KINDS

if TYPE_CHECKING:
    from engine.games.samurai.state import SamuraiState


@dataclass(frozen=True)
class Judgement:
    """The weights of the judgement, so that levels may judge differently."""

    # A lead of this much per empty land space around a settlement is out of reach.
    reach_per_empty: float = 2.5
    lead_floor: float = 0.3  # the least a lead is worth, however open the settlement
    majority: float = 2.0  # each type's majority, against one figure for the count
    count: float = 0.3
    temperature: float = 1.0  # how sharply a margin of the score turns into a value


# `easy`'s judgement. `SHARP`, that of the levels above it, counts an open lead
# by its margin alone (no floor: a small tile beside a wide-open settlement is
# hardly a lead) and the figures' count more against the majorities; in
# greedy play it won 77% of 200 games against `PLAIN`.
PLAIN = Judgement()
SHARP = Judgement(reach_per_empty=4.0, lead_floor=0.0, majority=1.0, count=0.6)

Projection = list[dict[str, float]]  # seat -> figure -> expected figures
Totals = dict[str, list[int]]  # figure -> each seat's influence


@cache
def settlements_near(players: int) -> dict[int, tuple[int, ...]]:
    """For each space, the settlements next to it."""
    board = board_for(players)
    near: dict[int, list[int]] = {space: [] for space in board.spaces}
    for settlement in board.settlements:
        for neighbour in board.space(settlement).neighbors:
            near[neighbour].append(settlement)
    return {space: tuple(found) for space, found in near.items()}


@cache
def _influence_table() -> dict[str, dict[str, int]]:
    return {code: {f: k.influence(f) for f in FIGURES} for code, k in KINDS.items()}


def add_stakes(
    projection: Projection,
    totals: Totals,
    empty: int,
    figures: Sequence[str],
    sign: float,
    judgement: Judgement = PLAIN,
) -> None:
    """Add (or take back, sign -1) to each figure's leader how surely it takes it:
    a lead is safe once no empty land is left or the margin is out of reach."""
    for figure in figures:
        seats = totals[figure]
        best = max(seats)
        if best == 0 or seats.count(best) > 1:
            continue
        leader = seats.index(best)
        margin = best - max(t for s, t in enumerate(seats) if s != leader)
        sure = 1.0
        if empty:
            sure = judgement.lead_floor + margin / (margin + judgement.reach_per_empty * empty)
        projection[leader][figure] += sign * min(sure, 1.0)


def seat_scores(projection: Projection, judgement: Judgement = PLAIN) -> list[float]:
    """Majorities of each type (softly, by margin) and the count of figures."""
    scores = [judgement.count * sum(mine.values()) for mine in projection]
    for figure in FIGURES:
        counts = [p[figure] for p in projection]
        for seat, count in enumerate(counts):
            best_other = max(c for other, c in enumerate(counts) if other != seat)
            scores[seat] += judgement.majority * math.tanh(count - best_other)
    return scores


def score_values(scores: Sequence[float], judgement: Judgement = PLAIN) -> list[float]:
    """Each seat's score against the best of the others, squashed into (0, 1)."""
    values = []
    for seat, score in enumerate(scores):
        rival = max(s for other, s in enumerate(scores) if other != seat)
        values.append(1.0 / (1.0 + math.exp(-(score - rival) / judgement.temperature)))
    return values


class Outlook:
    """The projection of a position, with each live settlement's influence."""

    def __init__(self, state: SamuraiState, judgement: Judgement = PLAIN) -> None:
        board = state.board
        self.judgement = judgement
        self.players = state.players
        self.board = board
        self.figures = state.figures
        self.totals: dict[int, Totals] = {}
        self.empty: dict[int, int] = {}
        table = _influence_table()
        self.projection: Projection = [
            {f: float(n) for f, n in captured.items()} for captured in state.captured
        ]
        for settlement, figures in state.figures.items():
            if not figures:
                continue
            totals = {f: [0] * state.players for f in FIGURES}
            for n in board.space(settlement).neighbors:
                if n in state.tiles:
                    seat, code = state.tiles[n]
                    for f, amount in table[code].items():
                        totals[f][seat] += amount
            self.totals[settlement] = totals
            self.empty[settlement] = sum(
                1 for n in board.land_neighbors(settlement) if n not in state.tiles
            )
            self._stakes(self.projection, totals, self.empty[settlement], figures, 1.0)

    def _stakes(
        self,
        projection: Projection,
        totals: Totals,
        empty: int,
        figures: Sequence[str],
        sign: float,
    ) -> None:
        add_stakes(projection, totals, empty, figures, sign, self.judgement)

    def _values(self, projection: Projection) -> list[float]:
        return score_values(seat_scores(projection, self.judgement), self.judgement)

    def values(self) -> list[float]:
        return self._values(self.projection)

    def touched(self, settlement: int) -> bool:
        """Whether any tile gives influence on the settlement's figures."""
        return any(any(seats) for seats in self.totals[settlement].values())

    def _without(self, settlements: Sequence[int]) -> Projection:
        projection = [dict(p) for p in self.projection]
        for s in settlements:
            self._stakes(projection, self.totals[s], self.empty[s], self.figures[s], -1.0)
        return projection

    def with_figures(self, figures: Mapping[int, Sequence[str]]) -> list[float]:
        """The values were the settlements in `figures` to hold those instead."""
        projection = self._without(list(figures))
        for s, now in figures.items():
            self._stakes(projection, self.totals[s], self.empty[s], now, 1.0)
        return self._values(projection)

    def with_tile(self, space: int, seat: int, code: str) -> list[float]:
        """The values were `seat` to lay `code` on the empty `space`."""
        live = [s for s in settlements_near(self.players)[space] if s in self.totals]
        projection = self._without(live)
        gain = _influence_table()[code]
        fills = 1 if self.board.space(space).is_land else 0
        for s in live:
            totals = {f: list(t) for f, t in self.totals[s].items()}
            for f in FIGURES:
                totals[f][seat] += gain[f]
            self._stakes(projection, totals, self.empty[s] - fills, self.figures[s], 1.0)
        return self._values(projection)
