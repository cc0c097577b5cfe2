"""The last turn as a picture shows it: the moves the last mover made in a row."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.render.colours import EDGE, HIGHLIGHT
from pbem.render.hexdraw import HexLayout
from pbem.render.surface import Surface


def last_turn(history: Sequence[Mapping[str, Any]]) -> tuple[int | None, list[str]]:
    """The seat that moved last and its moves since another seat moved.

    A turn of several moves (Taluva's tile and build, Samurai's tiles and
    `end`) is one run of entries of one seat in the history."""
    if not history:
        return None, []
    seat = history[-1]["seat"]
    moves: list[str] = []
    for entry in reversed(history):
        if entry["seat"] != seat:
            break
        moves.append(entry["move"])
    return seat, moves[::-1]


def spaces_named(moves: Iterable[str], names: Iterable[str]) -> set[str]:
    """Every space the moves mention, by the notation's names (case ignored)."""
    by_key = {name.upper(): name for name in names}
    found = set()
    for move in moves:
        for word in move.replace("(", " ").replace(")", " ").split():
            name = by_key.get(word.upper())
            if name is not None:
                found.add(name)
    return found


def highlight(canvas: Surface, lay: HexLayout, h: tuple[int, int]) -> None:
    """A bright ring inside the hex, edged dark so it reads on every colour."""
    ring = lay.corners(h, 0.86)
    canvas.outline(ring, EDGE, lay.size * 0.16)
    canvas.outline(ring, HIGHLIGHT, lay.size * 0.1)
