"""The four build actions: their conditions and every legal choice of them."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.errors import IllegalMove
from engine.core.hexgrid import Hex, neighbors
from engine.games.taluva import messages as m
from engine.games.taluva.island import HUT, TEMPLE, TOWER, Island, Settlement
from engine.games.taluva.notation import Build, BuildAction, Extend
from engine.games.taluva.notation import format_hex as fh
from engine.games.taluva.tiles import TERRAINS, VOLCANO

TEMPLE_MIN_SPACES = 3
TOWER_MIN_LEVEL = 3
NOT_NEXT = {TEMPLE: "taluva.temple_not_next", TOWER: "taluva.tower_not_next"}


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
            return IllegalMove.of("taluva.no_land", rule=m.BUILDING, space=fh(space))
        if cell.terrain == VOLCANO:
            return IllegalMove.of("taluva.on_volcano", rule=m.BUILDING, space=fh(space))
        if not cell.empty:
            return IllegalMove.of(
                "taluva.occupied", rule=m.BUILDING, space=fh(space), building=str(cell.building)
            )
        if self.stock[kind] < 1:
            return IllegalMove.of("taluva.none_left", rule=m.BUILDING_STOCK, building=kind)
        if kind == HUT:
            return self._hut_error(space, cell.level)
        nearby = [s for s in self.mine if s.spaces & set(neighbors(space))]
        if not nearby:
            return IllegalMove.of(NOT_NEXT[kind], rule=kind, space=fh(space))
        if kind == TEMPLE:
            if not any(len(s.spaces) >= TEMPLE_MIN_SPACES and s.temples == 0 for s in nearby):
                return IllegalMove.of(
                    "taluva.temple_settlement",
                    rule=TEMPLE,
                    size=TEMPLE_MIN_SPACES,
                    space=fh(space),
                )
            return None
        if cell.level < TOWER_MIN_LEVEL:
            return IllegalMove.of(
                "taluva.tower_level",
                rule=TOWER,
                least=TOWER_MIN_LEVEL,
                space=fh(space),
                level=cell.level,
            )
        if not any(s.towers == 0 for s in nearby):
            return IllegalMove.of("taluva.tower_taken", rule=TOWER, space=fh(space))
        return None

    def _hut_error(self, space: Hex, level: int) -> IllegalMove | None:
        if level != 1:
            return IllegalMove.of(
                "taluva.settlement_level", rule=m.NEW_SETTLEMENT, space=fh(space), level=level
            )
        cells = self.island.cells
        if any(n in cells and cells[n].owner == self.seat for n in neighbors(space)):
            return IllegalMove.of("taluva.settlement_alone", rule=m.NEW_SETTLEMENT, space=fh(space))
        return None

    def _extend_error(self, move: Extend) -> IllegalMove | None:
        settlement = self.settlement_at(move.settlement)
        if settlement is None:
            return IllegalMove.of(
                "taluva.no_settlement", rule=m.EXTENSION, space=fh(move.settlement)
            )
        spaces = self.extension_spaces(settlement, move.terrain)
        if not spaces:
            return IllegalMove.of(
                "taluva.nothing_to_extend",
                rule=m.EXTENSION,
                terrain=move.terrain,
                space=fh(move.settlement),
            )
        needed = sum(self.island.cells[s].level for s in spaces)
        if needed > self.stock[HUT]:
            return IllegalMove.of(
                "taluva.huts_short",
                rule=m.EXTENSION,
                terrain=move.terrain,
                needed=needed,
                spaces=", ".join(fh(s) for s in spaces),
                huts=self.stock[HUT],
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
