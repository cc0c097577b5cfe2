"""How a running Java game looks for each seat: points now plus points in sight.

The bots judge positions with this: the score, the final scoring as if the
game ended now (cities by highest position), part of the palace a seat could
build where it alone leads a village, and a little for festival cards,
action tokens and the action points the seat to act still has.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.games.java import cards
from engine.games.java.board import sort_spaces
from engine.games.java.positions import ranks, strict_winner
from engine.games.java.tiles import PALACE_VALUES

if TYPE_CHECKING:
    from engine.games.java.land import Land
    from engine.games.java.state import JavaState

# A palace not built yet is uncertain: this share of what it would bring.
PALACE_IN_SIGHT = 0.5
CARD_POINTS = 0.3  # per matching card, toward festivals
TOKEN_POINTS = 0.3
AP_POINTS = 0.6  # per action point the seat to act may still spend
# A developer on the land, more on high ground and in villages: where
# palaces and cities come from.
DEVELOPER_POINTS, HEIGHT_POINTS, IN_VILLAGE_POINTS = 0.4, 0.1, 0.4
# Points of lead that make a game nearly decided.
MARGIN_SCALE = 12.0


def village_areas(land: Land) -> list[tuple[str, ...]]:
    """Each village area once, in board order of its first space."""
    areas: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for cell in sort_spaces(c for c in land.face if land.is_village(c)):
        if cell not in seen:
            area = land.village_area(cell)
            seen |= area
            areas.append(sort_spaces(area))
    return areas


def palace_in_reach(state: JavaState, size: int) -> int:
    """The largest palace value the supply offers for a village of `size` spaces."""
    allowed = [v for v in PALACE_VALUES if v <= size and state.palace_supply[v] > 0]
    return max(allowed, default=0)


def projected_points(state: JavaState) -> list[float]:
    """Each seat's points if the game ended now, plus what it has in sight."""
    land = state.land
    points = [float(p) for p in state.scores]
    unscored = [s not in state.final_scored for s in range(state.players)]
    for area in village_areas(land):
        positions = land.positions(area)
        if not positions:
            continue
        palace = land.palace_of(area)
        if palace is not None:
            value = land.palaces[palace].value
            for place, group in enumerate(ranks(positions)[:2]):
                for seat in group:
                    if unscored[seat]:
                        points[seat] += value if place == 0 else value // 2
            continue
        leader = strict_winner(positions)
        if leader is not None and unscored[leader]:
            value = palace_in_reach(state, max(len(area), 2))
            points[leader] += PALACE_IN_SIGHT * (value + value // 2)
    for cell, seat in land.developers.items():
        points[seat] += DEVELOPER_POINTS + HEIGHT_POINTS * land.level[cell]
        if land.is_village(cell):
            points[seat] += IN_VILLAGE_POINTS
    for seat in range(state.players):
        points[seat] += CARD_POINTS * min(len(cards.matching(state.hands[seat], state.faceup)), 6)
        points[seat] += TOKEN_POINTS * state.tokens[seat]
    if state.auction is None and not state.is_over():
        points[state.current] += AP_POINTS * state.ap_left
    return points


def squashed_margins(points: list[float]) -> list[float]:
    """Each seat's lead over the best other seat, squashed into [0, 1]."""
    values = []
    for seat, mine in enumerate(points):
        best_other = max(p for s, p in enumerate(points) if s != seat)
        values.append(0.5 + 0.5 * math.tanh((mine - best_other) / MARGIN_SCALE))
    return values
