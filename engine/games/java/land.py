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
from engine.games.java.tiles import RICE, TILE_SIZE, VILLAGE, VILLAGE_FACE, faces


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
    """Village areas of one position, computed once for many placement checks.

    `joints`: the spaces next to village areas holding two palaces or more
    between them, the only places a new village could join two cities.
    """

    area_of: dict[str, int]
    palaces_in: list[int]
    joints: frozenset[str]


@dataclass(frozen=True)
class Regions:
    """One seat's developers' ground in regions of one colour (see `Land._regions`)."""

    region_of: dict[str, int]
    members: list[list[str]]
    borders: list[set[int]]


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
    # The move costs of the last position asked about, by source, and the
    # regions of each seat's developers, with the position they hold for
    # (every space, colour, palace and developer).
    _costs: tuple[tuple[object, ...], dict[str, dict[str, int]], dict[int, Regions]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __getstate__(self) -> dict[str, object]:
        """A copy (a bot's trial, pickled) leaves the cache behind: the move
        it is made for changes the position, and the cache was a third of
        what a copy pickled."""
        return {**vars(self), "_costs": None}

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
        next_to: dict[str, set[int]] = {}
        for cell, index in area_of.items():
            if palaces_in[index]:
                for n in NEIGHBORS[cell]:
                    next_to.setdefault(n, set()).add(index)
        joints = frozenset(
            n for n, areas in next_to.items() if sum(palaces_in[a] for a in areas) > 1
        )
        return VillageMap(area_of, palaces_in, joints)

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

    def placeable(self, *, developers_block: bool = True) -> Callable[[tuple[str, ...]], bool]:
        """Whether `tile_problem` finds nothing, as a test quick enough for the
        thousands of footprints of a legal-move list: it writes no refusal."""
        blocked = self.irrigation | self.palaces.keys()
        if developers_block:
            blocked |= self.developers.keys()
        level, top, sizes = self.level, self.top, self.sizes

        def fits(cells: tuple[str, ...]) -> bool:
            if not blocked.isdisjoint(cells):
                return False
            first, *rest = cells
            height = level.get(first, 0)
            if any(level.get(c, 0) != height for c in rest):
                return False
            if height == 0:
                return True
            under = top[first]
            return sizes[under] != len(cells) or any(top[c] != under for c in rest)

        return fits

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
        new_village = cells[0] if kind == VILLAGE else village
        if kind == RICE or new_village is None:
            return False
        if villages is not None:
            if new_village not in villages.joints:
                return False
            touched = {
                villages.area_of[n]
                for n in NEIGHBORS[new_village]
                if n not in cells and n in villages.area_of
            }
            if sum(villages.palaces_in[a] for a in touched) < 2:
                return False
        return self._palaces_after(faces(kind, cells, village), new_village) > 1

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
            self._costs = (key, {}, {})
        _, found, regions = self._costs
        if source not in found:
            seat = self.developers[source]
            if seat not in regions and any(self.developers[s] == seat for s in found):
                # A second developer of the seat asked for (a legal-move list
                # asks for all): one map of the ground serves them all.
                regions[seat] = self._regions(seat)
            if seat in regions:
                found[source] = self._region_costs(source, regions[seat])
            else:  # one move checked: a single search is cheaper than the map
                found[source] = self._flood_costs(source)
        return found[source]

    def _flood_costs(self, source: str) -> dict[str, int]:
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

    def _regions(self, seat: int) -> Regions:
        """The spaces a developer of `seat` may cross (land tiles, no palace,
        no other seat's developer), in regions of one colour: crossing a
        region is free, stepping into a bordering one costs a colour change."""
        face, level = self.face, self.level
        blocked = {*self.palaces, *(c for c, s in self.developers.items() if s != seat)}
        region_of: dict[str, int] = {}
        members: list[list[str]] = []
        for cell in level:
            if cell in blocked or cell in region_of:
                continue
            number, colour = len(members), face[cell]
            region_of[cell] = number
            group, todo = [cell], [cell]
            while todo:
                for n in NEIGHBORS[todo.pop()]:
                    if n in level and n not in region_of and n not in blocked and face[n] == colour:
                        region_of[n] = number
                        group.append(n)
                        todo.append(n)
            members.append(group)
        borders: list[set[int]] = [set() for _ in members]
        for cell, number in region_of.items():
            for n in NEIGHBORS[cell]:
                other = region_of.get(n)
                if other is not None and other != number:
                    borders[number].add(other)
        return Regions(region_of, members, borders)

    def _region_costs(self, source: str, regions: Regions) -> dict[str, int]:
        """Breadth-first over the regions: each step into another costs one."""
        start = regions.region_of[source]
        cost = {start: 0}
        layer, steps = [start], 0
        while layer:
            steps += 1
            beyond = []
            for number in layer:
                for other in regions.borders[number]:
                    if other not in cost:
                        cost[other] = steps
                        beyond.append(other)
            layer = beyond
        developers = self.developers
        return {
            cell: steps
            for number, steps in cost.items()
            for cell in regions.members[number]
            if cell not in developers
        }
