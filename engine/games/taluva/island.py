"""The island: stacked tiles, their levels, and the buildings on them.

Placement rules live here because they only need the island; whose turn it
is and what a player still has in stock are the state's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.core.errors import IllegalMove
from engine.core.hexgrid import Hex, direction_index, neighbors
from engine.core.messages import Message
from engine.games.taluva import messages as m
from engine.games.taluva import placements
from engine.games.taluva.notation import PlaceTile, format_hex
from engine.games.taluva.tiles import VOLCANO, Tile

HUT, TEMPLE, TOWER = "hut", "temple", "tower"


@dataclass(frozen=True)
class Cell:
    """One space's top: never changed in place (a build or a tile puts a new
    one), so copies of the island share their cells."""

    terrain: str
    level: int
    tile: int
    owner: int | None = None
    building: str | None = None
    huts: int = 0  # huts on a hut space: one per level when extended

    @property
    def empty(self) -> bool:
        return self.building is None


@dataclass
class Settlement:
    owner: int
    spaces: frozenset[Hex]
    temples: int
    towers: int

    @property
    def key(self) -> Hex:
        return min(self.spaces)


@dataclass
class Island:
    cells: dict[Hex, Cell] = field(default_factory=dict)
    tiles_placed: int = 0
    # Worked out on demand, dropped whenever a tile or a building is placed.
    _settlements: list[Settlement] | None = field(default=None, repr=False, compare=False)
    # Placements on the table, kept up to date by `place` once worked out,
    # and the same sorted, worked out again after each tile on the table.
    _table: set[placements.Spaces] | None = field(default=None, repr=False, compare=False)
    _table_sorted: list[placements.Spaces] | None = field(default=None, repr=False, compare=False)

    # -- tiles --------------------------------------------------------------

    def placement_error(self, move: PlaceTile) -> IllegalMove | None:
        """Why this tile may not lie here, or None when it may."""
        v, left, right = move.volcano, move.left, move.right
        shape = _shape_error(v, left, right)
        if shape:
            return shape
        spaces = (v, left, right)
        covered = [s for s in spaces if s in self.cells]
        if not self.cells:
            if v != (0, 0):
                return IllegalMove.of("taluva.first_tile", rule=m.FIRST_TILE)
            return None
        if not covered:
            if not any(n in self.cells for s in spaces for n in neighbors(s)):
                return IllegalMove.of("taluva.not_touching", rule=m.EXTENDING_ISLAND)
            return None
        if len(covered) < 3:
            gaps = ", ".join(format_hex(s) for s in spaces if s not in self.cells)
            return IllegalMove.of("taluva.gap_under", rule=m.NO_GAP, spaces=gaps)
        return self._eruption_error(v, left, right)

    def _eruption_error(self, v: Hex, left: Hex, right: Hex) -> IllegalMove | None:
        under = [self.cells[s] for s in (v, left, right)]
        if under[0].terrain != VOLCANO:
            return IllegalMove.of(
                "taluva.volcano_on_volcano",
                rule=m.VOLCANO_ON_VOLCANO,
                space=format_hex(v),
                terrain=under[0].terrain,
            )
        levels = {c.level for c in under}
        if len(levels) > 1:
            detail = [
                Message("taluva.level_of", {"space": format_hex(s), "level": c.level})
                for s, c in zip((v, left, right), under, strict=True)
            ]
            return IllegalMove.of("taluva.uneven", rule=m.NO_GAP, levels=tuple(detail))
        if len({c.tile for c in under}) == 1:
            return IllegalMove.of(
                "taluva.volcano_direction", rule=m.VOLCANO_DIRECTION, space=format_hex(v)
            )
        for space, cell in zip((left, right), under[1:], strict=True):
            if cell.building in (TEMPLE, TOWER):
                return IllegalMove.of(
                    "taluva.covers_building",
                    rule=m.COVERING_BUILDINGS,
                    building=str(cell.building),
                    space=format_hex(space),
                )
        covered = {left, right}
        for settlement in self.settlements():
            if settlement.spaces <= covered:
                return IllegalMove.of(
                    "taluva.covers_settlement",
                    rule=m.WHOLE_SETTLEMENT,
                    spaces=", ".join(format_hex(s) for s in sorted(settlement.spaces)),
                )
        return None

    def place(self, move: PlaceTile, tile: Tile) -> int:
        """Lay a tile already judged legal; returns how many huts it crushed."""
        level = self.cells[move.volcano].level + 1 if move.volcano in self.cells else 1
        crushed = sum(self.cells[s].huts for s in (move.left, move.right) if s in self.cells)
        new = [s for s in (move.volcano, move.left, move.right) if s not in self.cells]
        self.tiles_placed += 1
        self._settlements = None
        number = self.tiles_placed
        self.cells[move.volcano] = Cell(VOLCANO, level, number)
        self.cells[move.left] = Cell(tile.left, level, number)
        self.cells[move.right] = Cell(tile.right, level, number)
        if self._table is not None and new:
            placements.cover(self._table, self.cells, new)
            self._table_sorted = None
        return crushed

    def legal_placements(self) -> list[PlaceTile]:
        """Every legal tile position, in (volcano, left, right) order."""
        if self._table is None:
            self._table = placements.table_placements(self.cells)
        if self._table_sorted is None:
            self._table_sorted = sorted(self._table)
        return placements.legal_placements(self.cells, self._table_sorted)

    # -- buildings -----------------------------------------------------------

    def settlements(self, owner: int | None = None) -> list[Settlement]:
        """Groups of adjacent spaces holding one player's buildings."""
        if self._settlements is None:
            self._settlements = self._find_settlements()
        return [s for s in self._settlements if owner is None or s.owner == owner]

    def _find_settlements(self) -> list[Settlement]:
        seen: set[Hex] = set()
        found = []
        for start in sorted(self.cells):
            cell = self.cells[start]
            if cell.empty or start in seen:
                continue
            assert cell.owner is not None  # a built space has an owner
            group = {start}
            frontier = [start]
            while frontier:
                for n in neighbors(frontier.pop()):
                    other = self.cells.get(n)
                    if n not in group and other and not other.empty and other.owner == cell.owner:
                        group.add(n)
                        frontier.append(n)
            seen |= group
            kinds = [self.cells[s].building for s in group]
            found.append(
                Settlement(cell.owner, frozenset(group), kinds.count(TEMPLE), kinds.count(TOWER))
            )
        return found

    def build(self, space: Hex, owner: int, kind: str) -> int:
        """Put a building on a space; returns the number of pieces it used."""
        cell = self.cells[space]
        self._settlements = None
        huts = cell.level if kind == HUT else 0
        self.cells[space] = replace(cell, owner=owner, building=kind, huts=huts)
        return huts or 1

    def copy(self) -> Island:
        """A copy sharing the cells (never changed in place) and the
        settlements found (dropped, never changed, when the island changes)."""
        return Island(
            dict(self.cells),
            self.tiles_placed,
            self._settlements,
            None if self._table is None else set(self._table),
            None if self._table_sorted is None else list(self._table_sorted),
        )

    def buildable(self, space: Hex) -> bool:
        cell = self.cells.get(space)
        return cell is not None and cell.empty and cell.terrain != VOLCANO


def _shape_error(v: Hex, left: Hex, right: Hex) -> IllegalMove | None:
    d_left, d_right = direction_index(v, left), direction_index(v, right)
    if d_left is None or d_right is None or direction_index(left, right) is None:
        return IllegalMove.of(
            "taluva.not_one_tile",
            volcano=format_hex(v),
            left=format_hex(left),
            right=format_hex(right),
        )
    if d_right != (d_left + 1) % 6:
        return IllegalMove.of(
            "taluva.turned_over",
            rule=m.HANDEDNESS,
            volcano=format_hex(v),
            left=format_hex(left),
            right=format_hex(right),
        )
    return None
