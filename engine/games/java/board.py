"""The Java board: its spaces, their neighbours, the edge and every tile footprint.

Everything here is fixed for all games, so it is computed once at import.
Space ids (`F3`: column letter, row number) are the names players write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

MOUNTAIN, LOWLAND, LAND, IRRIGATION = "mountain", "lowland", "land", "irrigation"
RING_KINDS = frozenset({MOUNTAIN, LOWLAND})
EDGE_COST = {LOWLAND: 1, MOUNTAIN: 2}


@dataclass(frozen=True)
class Space:
    id: str
    col: int
    row: int
    q: int
    r: int
    kind: str
    neighbors: tuple[str, ...]
    border: bool

    @property
    def ring(self) -> bool:
        """Ring spaces surround central Java and only take overhanging tiles."""
        return self.kind in RING_KINDS

    @property
    def central(self) -> bool:
        return not self.ring


def _load() -> dict[str, Space]:
    raw = json.loads(resources.files(__package__).joinpath("data/board.json").read_text("utf-8"))
    return {
        c["id"]: Space(
            c["id"],
            c["col"],
            c["row"],
            c["q"],
            c["r"],
            c["kind"],
            tuple(c["neighbors"]),
            bool(c.get("border", False)),
        )
        for c in raw["cells"]
    }


SPACES: dict[str, Space] = _load()
ORDER: dict[str, int] = {
    sid: i for i, sid in enumerate(sorted(SPACES, key=lambda s: (SPACES[s].col, SPACES[s].row)))
}
NEIGHBORS: dict[str, frozenset[str]] = {sid: frozenset(s.neighbors) for sid, s in SPACES.items()}
PRINTED_IRRIGATION: frozenset[str] = frozenset(
    sid for sid, s in SPACES.items() if s.kind == IRRIGATION
)


def sort_spaces(spaces: Iterable[str]) -> tuple[str, ...]:
    """Board order (column, then row): the canonical order in the notation."""
    return tuple(sorted(spaces, key=ORDER.__getitem__))


def _edge_cost(space: str) -> int | None:
    """AP to enter or leave at this space, None when it is not at the edge.

    A ring space (reached by an overhanging tile) costs its own kind; a
    central border space costs the cheaper ring kind it touches.
    """
    s = SPACES[space]
    if s.ring:
        return EDGE_COST[s.kind]
    if not s.border:
        return None
    return min(EDGE_COST[SPACES[n].kind] for n in s.neighbors if SPACES[n].ring)


RING_SPACES: frozenset[str] = frozenset(sid for sid, s in SPACES.items() if s.ring)
# Looked up for every developer step a legal-move list weighs: a table.
EDGE_COSTS: dict[str, int] = {sid: cost for sid in SPACES if (cost := _edge_cost(sid)) is not None}


def edge_cost(space: str) -> int | None:
    """AP to enter or leave at this space, None when it is not at the edge."""
    return EDGE_COSTS.get(space)


def _footprints() -> dict[int, tuple[tuple[str, ...], ...]]:
    """Every triangle, pair and single a tile can cover (at least one central space)."""
    singles = {(s,) for s, sp in SPACES.items() if sp.kind == LAND}
    pairs = {sort_spaces((a, b)) for a in SPACES for b in NEIGHBORS[a]}
    triangles = {
        sort_spaces((a, b, c))
        for a in SPACES
        for b in NEIGHBORS[a]
        for c in NEIGHBORS[a] & NEIGHBORS[b]
    }

    def keep(fp: tuple[str, ...]) -> bool:
        return any(SPACES[s].central for s in fp)

    def order(fps: Iterable[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted((fp for fp in fps if keep(fp)), key=lambda fp: [ORDER[s] for s in fp]))

    return {1: order(singles), 2: order(pairs), 3: order(triangles)}


FOOTPRINTS = _footprints()
FOOTPRINT_SET = {size: frozenset(fps) for size, fps in FOOTPRINTS.items()}
# Per size, each footprint with its ring spaces: only those can cost more than 1 AP.
FOOTPRINT_RINGS = {
    size: tuple((fp, tuple(s for s in fp if s in RING_SPACES)) for fp in fps)
    for size, fps in FOOTPRINTS.items()
}
# Per size, per space: the positions in FOOTPRINTS[size] of the footprints covering it.
FOOTPRINTS_AT: dict[int, dict[str, tuple[int, ...]]] = {
    size: {sid: tuple(i for i, fp in enumerate(fps) if sid in fp) for sid in SPACES}
    for size, fps in FOOTPRINTS.items()
}
