"""Every legal tile placement, from footprints worked out once and a candidate
set kept up to date tile by tile (issue 12: bots and the legal-move list ask
for it every turn, and a search of the whole island took milliseconds).

A placement is the tuple (volcano, left, right) of its spaces, so sorting
tuples sorts moves the way the legal-move list is ordered.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING

from engine.core.hexgrid import DIRECTIONS, Hex, neighbors
from engine.games.taluva.notation import PlaceTile
from engine.games.taluva.tiles import VOLCANO

if TYPE_CHECKING:
    from engine.games.taluva.island import Cell

Spaces = tuple[Hex, Hex, Hex]
FIRST_VOLCANO: Hex = (0, 0)
NOT_COVERED = ("temple", "tower")

# Left and right terrain relative to the volcano, one per direction of the
# left terrain; the right one is the next space clockwise.
ORIENTATIONS: tuple[tuple[Hex, Hex], ...] = tuple(
    (DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]) for d in range(6)
)
# The 18 placements holding a space, relative to it: each orientation with
# the space under the volcano, the left or the right terrain.
COVERING: tuple[Spaces, ...] = tuple(
    rotated
    for left, right in ORIENTATIONS
    for rotated in (
        ((0, 0), left, right),
        ((-left[0], -left[1]), (0, 0), (right[0] - left[0], right[1] - left[1])),
        ((-right[0], -right[1]), (left[0] - right[0], left[1] - right[1]), (0, 0)),
    )
)


def _around(space: Hex) -> Iterator[Spaces]:
    q, r = space
    for (vq, vr), (lq, lr), (rq, rr) in COVERING:
        yield (q + vq, r + vr), (q + lq, r + lr), (q + rq, r + rr)


def _add_table(table: set[Spaces], cells: Mapping[Hex, Cell], border: Iterable[Hex]) -> None:
    """Add every placement on empty spaces that holds one of the `border` spaces."""
    for space in border:
        for spaces in _around(space):
            v, left, right = spaces
            if v not in cells and left not in cells and right not in cells:
                table.add(spaces)


def table_placements(cells: Mapping[Hex, Cell]) -> set[Spaces]:
    """Placements on the table touching the island: all legal once it has a tile."""
    table: set[Spaces] = set()
    _add_table(table, cells, {n for s in cells for n in neighbors(s) if n not in cells})
    return table


def cover(table: set[Spaces], cells: Mapping[Hex, Cell], new: Iterable[Hex]) -> None:
    """Bring `table` up to date after a tile covered the `new` spaces (already in `cells`)."""
    new = tuple(new)
    for space in new:
        for spaces in _around(space):
            table.discard(spaces)
    _add_table(table, cells, {n for s in new for n in neighbors(s) if n not in cells})


def eruptions(cells: Mapping[Hex, Cell]) -> Iterator[Spaces]:
    """Every legal placement on top of the island: the checks of
    `Island.placement_error` for covered spaces, asked of every volcano."""
    for (q, r), volcano in cells.items():
        if volcano.terrain != VOLCANO:
            continue
        for (lq, lr), (rq, rr) in ORIENTATIONS:
            left, right = (q + lq, r + lr), (q + rq, r + rr)
            a, b = cells.get(left), cells.get(right)
            if a is None or b is None or not volcano.level == a.level == b.level:
                continue
            if volcano.tile == a.tile == b.tile:
                continue
            if a.building in NOT_COVERED or b.building in NOT_COVERED:
                continue
            if (a.building or b.building) and _covers_settlement(cells, left, right):
                continue
            yield (q, r), left, right


def _covers_settlement(cells: Mapping[Hex, Cell], left: Hex, right: Hex) -> bool:
    """Whether a settlement lies wholly on these two neighbouring spaces."""
    a, b = cells[left], cells[right]
    if a.building and b.building and a.owner == b.owner:
        return _alone(cells, left, right) and _alone(cells, right, left)
    return bool(
        (a.building and _alone(cells, left, right)) or (b.building and _alone(cells, right, left))
    )


def _alone(cells: Mapping[Hex, Cell], space: Hex, besides: Hex) -> bool:
    """Whether no building of the owner of `space` touches it, `besides` aside."""
    owner = cells[space].owner
    for n in neighbors(space):
        other = cells.get(n)
        if n != besides and other is not None and other.building and other.owner == owner:
            return False
    return True


@cache
def as_move(spaces: Spaces) -> PlaceTile:
    return PlaceTile(*spaces)


def legal_placements(cells: Mapping[Hex, Cell], table: list[Spaces]) -> list[PlaceTile]:
    """Every legal placement, in (volcano, left, right) order once the island
    has a tile; `table` sorted, as kept by `cover` (a sorted run and a short
    one merge in about linear time)."""
    if not cells:  # the first tile: each turn around 0,0, in the order of the directions
        return [as_move((FIRST_VOLCANO, left, right)) for left, right in ORIENTATIONS]
    found = table + sorted(eruptions(cells))
    found.sort()
    return [as_move(spaces) for spaces in found]
