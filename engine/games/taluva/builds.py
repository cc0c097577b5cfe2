"""The four build actions: their conditions and every legal choice of them."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.errors import IllegalMove
from engine.core.hexgrid import Hex, neighbors
from engine.games.taluva.island import HUT, TEMPLE, TOWER, Island, Settlement
from engine.games.taluva.notation import Build, BuildAction, Extend
from engine.games.taluva.notation import format_hex as fh
from engine.games.taluva.tiles import TERRAINS, VOLCANO

TEMPLE_MIN_SPACES = 3
TOWER_MIN_LEVEL = 3


class Builder:
    """One player's building options on one island, with their settlements
    worked out once for all the questions asked."""

    def __init__(self, island: Island, seat: int, stock: dict[str, int]) -> None:
        self.island = island
        self.seat = seat
        self.stock = stock
        self.mine = island.settlements(seat)

    def settlement_at(self, space: Hex) -> Settlement | None:
        return next((s for s in self.mine if space in s.spaces), None)

    def canonical(self, move: BuildAction) -> BuildAction:
        """Name a settlement by its first space so every way of writing it is one move."""
        if isinstance(move, Extend):
            settlement = self.settlement_at(move.settlement)
            if settlement is not None:
                return Extend(settlement.key, move.terrain)
        return move

    def extension_spaces(self, settlement: Settlement, terrain: str) -> list[Hex]:
        """Every empty space of `terrain` touching the settlement."""
        island = self.island
        return sorted(
            {
                n
                for s in settlement.spaces
                for n in neighbors(s)
                if island.buildable(n) and island.cells[n].terrain == terrain
            }
        )

    def error(self, move: BuildAction) -> IllegalMove | None:
        """Why this build is not allowed, or None when it is."""
        if isinstance(move, Extend):
            return self._extend_error(move)
        space, kind = move.at, move.kind
        cell = self.island.cells.get(space)
        if cell is None:
            return IllegalMove(f"there is no land on {fh(space)}", rule="building")
        if cell.terrain == VOLCANO:
            return IllegalMove(
                f"{fh(space)} is a volcano: nobody builds on a volcano", rule="building"
            )
        if not cell.empty:
            return IllegalMove(f"{fh(space)} already holds a {cell.building}", rule="building")
        if self.stock[kind] < 1:
            return IllegalMove(f"you have no {kind} left", rule="building stock")
        if kind == HUT:
            return self._hut_error(space, cell.level)
        nearby = [s for s in self.mine if s.spaces & set(neighbors(space))]
        if not nearby:
            return IllegalMove(
                f"a {kind} must stand next to one of your settlements, and {fh(space)} does not",
                rule=kind,
            )
        if kind == TEMPLE:
            if not any(len(s.spaces) >= TEMPLE_MIN_SPACES and s.temples == 0 for s in nearby):
                return IllegalMove(
                    f"a temple needs one of your settlements of at least {TEMPLE_MIN_SPACES} "
                    f"spaces with no temple next to {fh(space)}",
                    rule="temple",
                )
            return None
        if cell.level < TOWER_MIN_LEVEL:
            return IllegalMove(
                f"a tower stands on level {TOWER_MIN_LEVEL} or higher, and {fh(space)} is "
                f"level {cell.level}",
                rule="tower",
            )
        if not any(s.towers == 0 for s in nearby):
            return IllegalMove(
                f"every settlement of yours next to {fh(space)} already has a tower",
                rule="tower",
            )
        return None

    def _hut_error(self, space: Hex, level: int) -> IllegalMove | None:
        if level != 1:
            return IllegalMove(
                f"a new settlement starts on level 1, and {fh(space)} is level {level}",
                rule="new settlement",
            )
        cells = self.island.cells
        if any(n in cells and cells[n].owner == self.seat for n in neighbors(space)):
            return IllegalMove(
                f"{fh(space)} touches one of your buildings: a new settlement must stand "
                "alone (to grow a settlement, extend it)",
                rule="new settlement",
            )
        return None

    def _extend_error(self, move: Extend) -> IllegalMove | None:
        settlement = self.settlement_at(move.settlement)
        if settlement is None:
            return IllegalMove(
                f"you have no settlement on {fh(move.settlement)} to extend", rule="extension"
            )
        spaces = self.extension_spaces(settlement, move.terrain)
        if not spaces:
            return IllegalMove(
                f"there is no empty {move.terrain} next to your settlement on "
                f"{fh(move.settlement)}",
                rule="extension",
            )
        needed = sum(self.island.cells[s].level for s in spaces)
        if needed > self.stock[HUT]:
            return IllegalMove(
                f"extending onto {move.terrain} needs {needed} huts "
                f"({', '.join(fh(s) for s in spaces)}, one per level) and you have "
                f"{self.stock[HUT]}",
                rule="extension",
            )
        return None

    def legal(self) -> Iterator[BuildAction]:
        """Every legal build, lazily, so 'can this player build at all?' stops early.

        The checks of `error`, asked of every space with what they need
        worked out once: the settlements beside each space, each
        settlement's empty neighbours by terrain."""
        cells, stock = self.island.cells, self.stock
        beside: dict[Hex, list[Settlement]] = {}
        for settlement in self.mine:
            for n in {n for s in settlement.spaces for n in neighbors(s)}:
                beside.setdefault(n, []).append(settlement)
        for space in sorted(cells):
            cell = cells[space]
            if not cell.empty or cell.terrain == VOLCANO:
                continue
            nearby = beside.get(space)
            if stock[HUT] >= 1 and cell.level == 1 and not nearby:
                yield Build(HUT, space)
            if not nearby:
                continue
            if stock[TEMPLE] >= 1 and any(
                len(s.spaces) >= TEMPLE_MIN_SPACES and s.temples == 0 for s in nearby
            ):
                yield Build(TEMPLE, space)
            if (
                stock[TOWER] >= 1
                and cell.level >= TOWER_MIN_LEVEL
                and any(s.towers == 0 for s in nearby)
            ):
                yield Build(TOWER, space)
        for settlement in self.mine:
            needed: dict[str, int] = {}
            for n in {n for s in settlement.spaces for n in neighbors(s)}:
                if self.island.buildable(n):
                    terrain = cells[n].terrain
                    needed[terrain] = needed.get(terrain, 0) + cells[n].level
            for terrain in TERRAINS:
                if terrain in needed and needed[terrain] <= stock[HUT]:
                    yield Extend(settlement.key, terrain)
