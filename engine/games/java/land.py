"""What lies on the board: tile stacks, developers, palaces, irrigation.

`Land` is plain data (so states compare equal after replay) with the
geometric questions the rules ask of it: village areas, ponds, whether a
tile may lie somewhere, and what moving a developer costs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.core.errors import IllegalMove
from engine.games.java import messages as m
from engine.games.java.board import (
    NEIGHBORS,
    PRINTED_IRRIGATION,
    RING_SPACES,
    edge_cost,
)
from engine.games.java.positions import standings
from engine.games.java.tiles import TILE_SIZE, VILLAGE_FACE, faces


@dataclass
class Palace:
    """A stack of palace pieces on one village space."""

    values: list[int]
    festival: bool = False
    changed_turn: int = -1

    @property
    def value(self) -> int:
        return self.values[-1]


@dataclass
class VillageMap:
    """Village areas of one position, computed once for many placement checks."""

    area_of: dict[str, int]
    palaces_in: list[int]


@dataclass
class Land:
    level: dict[str, int] = field(default_factory=dict)
    face: dict[str, str] = field(default_factory=dict)
    top: dict[str, int] = field(default_factory=dict)
    sizes: list[int] = field(default_factory=list)
    developers: dict[str, int] = field(default_factory=dict)
    palaces: dict[str, Palace] = field(default_factory=dict)
    irrigation: set[str] = field(default_factory=lambda: set(PRINTED_IRRIGATION))
    scored_ponds: set[str] = field(default_factory=set)
    # The move costs of the last position asked about, by source, with the
    # position they hold for (every space, colour, palace and developer).
    _costs: tuple[tuple[object, ...], dict[str, dict[str, int]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    # -- areas ------------------------------------------------------------

    def is_village(self, cell: str) -> bool:
        return self.face.get(cell) == VILLAGE_FACE

    def village_area(self, cell: str) -> set[str]:
        """The village or city (connected village spaces, any level) holding `cell`."""
        return self._component(cell, self.is_village)

    def pond(self, cell: str) -> set[str]:
        return self._component(cell, self.irrigation.__contains__)

    def _component(self, cell: str, inside: Callable[[str], bool]) -> set[str]:
        seen = {cell}
        todo = [cell]
        while todo:
            for n in NEIGHBORS[todo.pop()]:
                if n not in seen and inside(n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def village_map(self) -> VillageMap:
        area_of: dict[str, int] = {}
        palaces_in: list[int] = []
        for cell, face in self.face.items():
            if face == VILLAGE_FACE and cell not in area_of:
                area = self.village_area(cell)
                for c in area:
                    area_of[c] = len(palaces_in)
                palaces_in.append(sum(1 for c in area if c in self.palaces))
        return VillageMap(area_of, palaces_in)

    def palace_of(self, area: Iterable[str]) -> str | None:
        return next((c for c in area if c in self.palaces), None)

    def cities(self) -> list[tuple[str, set[str]]]:
        """Each palace with its city, in board order of the palace space."""
        return [(cell, self.village_area(cell)) for cell in sorted(self.palaces)]

    def positions(self, cells: Iterable[str]) -> dict[int, tuple[int, ...]]:
        """Each seat's developer heights on these spaces, highest first."""
        return standings((self.developers[c], self.level[c]) for c in cells if c in self.developers)

    # -- tiles ------------------------------------------------------------

    def overhang(self, cells: Iterable[str]) -> int:
        """Ring spaces not yet covered: each costs 1 AP more to lie over."""
        return sum(1 for c in cells if c in RING_SPACES and c not in self.level)

    def irrigation_problem(self, cells: Iterable[str]) -> IllegalMove | None:
        """Irrigation is never covered; said first, before any shape rule."""
        for c in cells:
            if c in self.irrigation:
                return IllegalMove.of("java.irrigation_covered", rule=m.STACKING, space=c)
        return None

    def tile_problem(
        self, cells: tuple[str, ...], *, developers_block: bool = True
    ) -> IllegalMove | None:
        """Why a tile may not cover `cells` (the geometry only; the kind fixes the shape)."""
        problem = self.irrigation_problem(cells)
        if problem:
            return problem
        for c in cells:
            if developers_block and c in self.developers:
                return IllegalMove.of("java.developer_under", rule=m.STACKING, space=c)
            if c in self.palaces:
                return IllegalMove.of("java.palace_under", rule=m.STACKING, space=c)
        levels = {self.level.get(c, 0) for c in cells}
        if len(levels) > 1:
            return IllegalMove.of(
                "java.not_flat",
                rule=m.STACKING,
                spaces=" ".join(cells),
                levels=str(sorted(levels)),
            )
        if levels != {0}:
            under = {self.top[c] for c in cells}
            if len(under) == 1 and self.sizes[under.pop()] == len(cells):
                return IllegalMove.of(
                    "java.same_size_under", rule=m.STACKING, spaces=" ".join(cells)
                )
        return None

    def joins_cities(
        self,
        kind: str,
        cells: tuple[str, ...],
        village: str | None,
        villages: VillageMap | None = None,
    ) -> bool:
        """Whether the tile would join two cities (areas with a palace) into one.

        With a village map of the position (many checks at once), most tiles
        are cleared without a search: the new village can only grow into
        the areas it touches.
        """
        new_faces = faces(kind, cells, village)
        new_villages = [c for c, f in new_faces.items() if f == VILLAGE_FACE]
        if not new_villages:
            return False
        if villages is not None:
            touched = {
                villages.area_of[n]
                for c in new_villages
                for n in NEIGHBORS[c]
                if n not in new_faces and n in villages.area_of
            }
            if sum(villages.palaces_in[a] for a in touched) < 2:
                return False
        return self._palaces_after(new_faces, new_villages[0]) > 1

    def _palaces_after(self, new_faces: dict[str, str], start: str) -> int:
        def village_after(c: str) -> bool:
            return new_faces[c] == VILLAGE_FACE if c in new_faces else self.is_village(c)

        area = self._component(start, village_after)
        return sum(1 for c in area if c in self.palaces)

    def lay(self, kind: str, cells: tuple[str, ...], village: str | None) -> None:
        tile = len(self.sizes)
        self.sizes.append(TILE_SIZE[kind])
        for cell, face in faces(kind, cells, village).items():
            self.level[cell] = self.level.get(cell, 0) + 1
            self.face[cell] = face
            self.top[cell] = tile

    # -- ponds ------------------------------------------------------------

    def closed_ponds(self, near: Iterable[str]) -> list[set[str]]:
        """Unscored ponds touching `near` whose surroundings are all land tiles."""
        found: list[set[str]] = []
        for cell in near:
            for c in (cell, *NEIGHBORS[cell]):
                if c in self.irrigation and c not in self.scored_ponds:
                    pond = self.pond(c)
                    if pond not in found and all(n in self.level for n in self.pond_shore(pond)):
                        found.append(pond)
        return found

    def pond_shore(self, pond: set[str]) -> set[str]:
        return {n for c in pond for n in NEIGHBORS[c] if n not in self.irrigation}

    # -- developers -------------------------------------------------------

    def free_for_developer(self, cell: str) -> bool:
        return cell in self.level and cell not in self.developers and cell not in self.palaces

    def entry_cost(self, cell: str) -> int | None:
        """AP to enter or leave at a land tile on the edge, None elsewhere."""
        if cell not in self.level:
            return None
        return edge_cost(cell)

    def move_costs(self, source: str) -> dict[str, int]:
        """Cheapest colour changes from `source` to every space the developer may end on.

        Paths run over land tiles (levels are free), never over palaces or
        opponents' developers; own developers may be passed but not joined.
        Searched once per position and source: the legal list, the check
        and the apply of a move ask the same (issue 12). Treat it as read-only.
        """
        key = (
            tuple(self.level),
            tuple(self.face.items()),
            tuple(self.palaces),
            tuple(self.developers.items()),
        )
        if self._costs is None or self._costs[0] != key:
            self._costs = (key, {})
        found = self._costs[1]
        if source not in found:
            found[source] = self._search_costs(source)
        return found[source]

    def _search_costs(self, source: str) -> dict[str, int]:
        """Breadth-first by colour changes: all that one more change reaches,
        then flooded over its own colour for free."""
        face, developers = self.face, self.developers
        seat = developers[source]
        blocked = {*self.palaces, *(c for c, s in developers.items() if s != seat)}
        passable = self.level.keys() - blocked
        best = {source: 0}
        layer, cost = [source], 0
        while layer:
            beyond = []
            while layer:
                cell = layer.pop()
                colour = face[cell]
                for n in NEIGHBORS[cell]:
                    if n in passable and n not in best:
                        if face[n] == colour:
                            best[n] = cost
                            layer.append(n)
                        else:
                            beyond.append(n)
            cost += 1
            for n in beyond:
                if n not in best:
                    best[n] = cost
                    layer.append(n)
        return {c: v for c, v in best.items() if c not in developers}
