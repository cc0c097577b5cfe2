"""The highest position: who dominates an area by the heights of their developers.

Each player's developers are listed by height, highest first, and the lists
are compared lexicographically; a longer list that ties on the shorter one's
length wins. Python's tuple order is exactly that comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def standings(developers: Iterable[tuple[int, int]]) -> dict[int, tuple[int, ...]]:
    """Each seat's heights, highest first, from (seat, height) pairs."""
    heights: dict[int, list[int]] = {}
    for seat, height in developers:
        heights.setdefault(seat, []).append(height)
    return {seat: tuple(sorted(hs, reverse=True)) for seat, hs in heights.items()}


def ranks(positions: Mapping[int, tuple[int, ...]]) -> list[list[int]]:
    """Seats grouped by position, best first; equal positions share a group."""
    groups: list[list[int]] = []
    for key in sorted(set(positions.values()), reverse=True):
        groups.append(sorted(s for s, v in positions.items() if v == key))
    return groups


def strict_winner(positions: Mapping[int, tuple[int, ...]]) -> int | None:
    """The one seat with the highest position; None when nobody or a tie."""
    groups = ranks(positions)
    if groups and len(groups[0]) == 1:
        return groups[0][0]
    return None
