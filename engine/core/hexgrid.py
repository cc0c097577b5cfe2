"""Axial hex coordinates for flat-top hexes (Red Blob Games' hex guide).

Every board in the project is flat-top; the shipped maps use the odd-q offset
layout (odd columns half a hex lower), converted here to and from axial.
"""

from __future__ import annotations

from collections.abc import Iterator

Hex = tuple[int, int]

# Neighbour offsets in the order a person reads them clockwise on screen,
# with y growing downwards: N, NE, SE, S, SW, NW.
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbors(h: Hex) -> Iterator[Hex]:
    q, r = h
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def direction_index(a: Hex, b: Hex) -> int | None:
    """Index in DIRECTIONS of the step from a to b, None when not adjacent."""
    try:
        return DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
    except ValueError:
        return None


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial to odd-q (column, row)."""
    q, r = h
    return q, r + (q - (q & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    """Odd-q (column, row) to axial."""
    return col, row - (col - (col & 1)) // 2


def to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of a flat-top hex of circumradius `size`, y downwards."""
    q, r = h
    return size * 1.5 * q, size * 3**0.5 * (r + q / 2)
