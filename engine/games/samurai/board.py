"""The map of Japan: which spaces are in play for a player count, their
names, kinds and neighbours."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

SECTIONS_BY_PLAYERS = {2: ("Center",), 3: ("Center", "South"), 4: ("Center", "South", "North")}
SETTLEMENT_KINDS = ("village", "city", "edo")
# Figures have to fit exactly in the settlements' slots: 7, 10 or 13 of each type.
FIGURES_PER_TYPE = {2: 7, 3: 10, 4: 13}


@dataclass(frozen=True)
class Space:
    id: int
    name: str
    kind: str  # sea, land, village, city, edo
    slots: int
    q: int
    r: int
    col: int
    row: int
    neighbors: tuple[int, ...]  # only neighbours in play

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_land(self) -> bool:
        """Plain land: where every tile but a ship goes."""
        return self.kind == "land"

    @property
    def is_settlement(self) -> bool:
        return self.kind in SETTLEMENT_KINDS


@dataclass(frozen=True)
class Board:
    players: int
    spaces: dict[int, Space]
    by_name: dict[str, int]

    def space(self, space_id: int) -> Space:
        return self.spaces[space_id]

    def name(self, space_id: int) -> str:
        return self.spaces[space_id].name

    @cached_property
    def settlements(self) -> list[int]:
        return [s.id for s in self.spaces.values() if s.is_settlement]

    @cached_property
    def cities(self) -> list[int]:
        """Settlements with two slots (Edo, with three, is set up on its own)."""
        return [s.id for s in self.spaces.values() if s.kind == "city"]

    @cached_property
    def villages(self) -> list[int]:
        return [s.id for s in self.spaces.values() if s.kind == "village"]

    @cached_property
    def edo(self) -> int:
        return next(s.id for s in self.spaces.values() if s.kind == "edo")

    @cached_property
    def sea(self) -> list[int]:
        return [s.id for s in self.spaces.values() if s.is_sea]

    @cached_property
    def land(self) -> list[int]:
        """Plain land spaces, where every tile but a ship goes."""
        return [s.id for s in self.spaces.values() if s.is_land]

    def land_neighbors(self, settlement: int) -> tuple[int, ...]:
        """The spaces that must all hold a tile before a settlement is resolved."""
        return self._land_neighbors[settlement]

    @cached_property
    def _land_neighbors(self) -> dict[int, tuple[int, ...]]:
        return {
            s: tuple(n for n in self.spaces[s].neighbors if self.spaces[n].is_land)
            for s in self.settlements
        }


def _raw_map() -> list[dict[str, Any]]:
    path = Path(__file__).parent / "data" / "map.json"
    hexes: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["hexes"]
    return hexes


@cache
def _names() -> dict[int, str]:
    """Column letter (A = westmost) and row number (1 = northmost), as printed on
    the board pictures; odd columns stay half a hex lower."""
    hexes = _raw_map()
    left = min(h["col"] for h in hexes)
    top = min(h["row"] for h in hexes)
    return {h["id"]: f"{chr(ord('A') + h['col'] - left)}{h['row'] - top + 1}" for h in hexes}


@cache
def board_for(players: int) -> Board:
    """The spaces in play: land of the sections used, and sea touching any of them."""
    sections = set(SECTIONS_BY_PLAYERS[players])
    hexes = [h for h in _raw_map() if sections & set(h["sections"])]
    ids = {h["id"] for h in hexes}
    names = _names()
    spaces = {
        h["id"]: Space(
            id=h["id"],
            name=names[h["id"]],
            kind=h["kind"],
            slots=h["slots"],
            q=h["q"],
            r=h["r"],
            col=h["col"],
            row=h["row"],
            neighbors=tuple(n for n in h["neighbors"] if n in ids),
        )
        for h in hexes
    }
    by_name = {s.name: s.id for s in spaces.values()}
    return Board(players, spaces, by_name)
