"""Points that follow from the position: ponds when closed, the final scoring."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.java.land import Land
from engine.games.java.positions import ranks, strict_winner

POND_POINTS_PER_SPACE = 3


def pond_scorer(land: Land, pond: set[str]) -> int | None:
    """The seat with the highest position on the spaces around the pond, if any."""
    return strict_winner(land.positions(land.pond_shore(pond)))


@dataclass(frozen=True)
class CityScore:
    palace: str
    value: int
    place: int  # 1 first, 2 second
    points: int


def final_scoring(land: Land, seat: int) -> list[CityScore]:
    """One player's own final scoring: full value when first (ties included),
    half when second (ties included), per city."""
    scores = []
    for palace, city in land.cities():
        groups = ranks(land.positions(city))
        value = land.palaces[palace].value
        for place, group in enumerate(groups[:2], start=1):
            if seat in group:
                points = value if place == 1 else value // 2
                scores.append(CityScore(palace, value, place, points))
    return scores
