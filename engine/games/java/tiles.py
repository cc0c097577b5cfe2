"""Land tiles, palaces and the other supplies: what exists and how many."""

from __future__ import annotations

TRIPLE, DOUBLE, RICE, VILLAGE = "triple", "double", "rice", "village"
TILE_KINDS = (TRIPLE, DOUBLE, RICE, VILLAGE)
TILE_SIZE = {TRIPLE: 3, DOUBLE: 2, RICE: 1, VILLAGE: 1}

# Faces of a space's top tile.
RICE_FACE, VILLAGE_FACE = "R", "V"

TRIPLES = 56
IRRIGATION_TILES = 16
DEVELOPERS = 12
ACTION_TOKENS = 3
HAND_SIZE = 3
OWN_TILES = {DOUBLE: 5, RICE: 3, VILLAGE: 2}
PALACES = {2: 6, 4: 7, 6: 8, 8: 9, 10: 10}
PALACE_VALUES = tuple(PALACES)

AP_PER_TURN = 6
CARDS_PER_TURN = 2


def faces(kind: str, cells: tuple[str, ...], village: str | None) -> dict[str, str]:
    """The face each covered space shows once the tile lies there."""
    if kind == RICE:
        return dict.fromkeys(cells, RICE_FACE)
    if kind == VILLAGE:
        return dict.fromkeys(cells, VILLAGE_FACE)
    return {c: VILLAGE_FACE if c == village else RICE_FACE for c in cells}
