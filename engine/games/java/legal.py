"""Every legal move of the seat to act, in a stable order.

The enumeration mirrors the checks in `state.py` but works from
precomputed footprints and one village map per call, so a bot game stays
fast. Tests compare the two on random positions.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import TYPE_CHECKING

from engine.games.java import cards
from engine.games.java.board import (
    FOOTPRINT_RINGS,
    FOOTPRINT_SET,
    FOOTPRINTS_AT,
    SPACES,
    sort_spaces,
)
from engine.games.java.notation import (
    DECK,
    FACEUP,
    Agree,
    Build,
    Draw,
    EndTurn,
    Enlarge,
    Enter,
    Festival,
    Irrigate,
    Leave,
    Move,
    MoveDeveloper,
    Pass,
    PlaceTile,
    PlayCards,
    TakeToken,
)
from engine.games.java.positions import strict_winner
from engine.games.java.tiles import (
    CARDS_PER_TURN,
    DOUBLE,
    PALACE_VALUES,
    TILE_KINDS,
    TILE_SIZE,
    TRIPLE,
)

if TYPE_CHECKING:
    from engine.games.java.state import JavaState


def footprint_set(size: int) -> frozenset[tuple[str, ...]]:
    return FOOTPRINT_SET.get(size, frozenset())


def moves(state: JavaState, seat: int) -> list[Move]:
    if state.auction is not None:
        return auction_moves(state, seat)
    found: list[Move] = []
    found += tile_moves(state, seat)
    found += developer_moves(state, seat)
    found += palace_moves(state, seat)
    found += other_moves(state, seat)
    found += festival_moves(state, seat)
    if not (state.duty_pending and any(isinstance(m, PlaceTile) for m in found)):
        found.append(EndTurn())
    return found


def tile_moves(state: JavaState, seat: int, near: Collection[str] | None = None) -> list[PlaceTile]:
    """Every tile the seat may lay; with `near`, only those covering one of its spaces."""
    if state.ap_left < 1:
        return []
    kinds = [kind for kind in TILE_KINDS if state.has_tile(seat, kind)]
    if seat in state.reserves_kept and triple_fits(state):
        kinds = [TRIPLE]  # the seat's own tiles are kept (JavaState.spends_reserve)
    return list(_placements(state, kinds, ap=state.ap_left, developers_block=True, near=near))


def triple_fits(state: JavaState) -> bool:
    """Whether a triple from the common supply may be laid now."""
    if state.ap_left < 1 or not state.triples:
        return False
    placements = _placements(state, [TRIPLE], ap=state.ap_left, developers_block=True)
    return next(placements, None) is not None


def land_frozen(state: JavaState) -> bool:
    """Whether no tile left in any supply can ever be laid again.

    Only laid tiles change where tiles fit (palaces and irrigation stay and
    only forbid more), so a tile that fits nowhere, even with every developer
    stepped aside, never will.
    """
    kinds = [k for k in TILE_KINDS if any(state.has_tile(s, k) for s in range(state.players))]
    return next(_placements(state, kinds, ap=None, developers_block=False), None) is None


def _placements(
    state: JavaState,
    kinds: list[str],
    *,
    ap: int | None,
    developers_block: bool,
    near: Collection[str] | None = None,
) -> Iterator[PlaceTile]:
    land = state.land
    villages = land.village_map()
    may_join = bool(villages.joints)  # else no tile can join two cities
    fits = land.placeable(developers_block=developers_block)
    for kind in kinds:
        for cells, ring in _footprints(TILE_SIZE[kind], near):
            # A tile on the central spaces alone costs 1 AP, which `ap` always holds.
            if ap is not None and ring and state.tile_cost(cells) > ap:
                continue
            if not fits(cells):
                continue
            for village in cells if kind in (TRIPLE, DOUBLE) else (None,):
                if not (may_join and land.joins_cities(kind, cells, village, villages)):
                    yield PlaceTile(kind, cells, village)


def _footprints(
    size: int, near: Collection[str] | None
) -> Sequence[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every footprint of a size with its ring spaces, or those covering a
    space of `near`, in board order."""
    if near is None:
        return FOOTPRINT_RINGS[size]
    at = FOOTPRINTS_AT[size]
    return [FOOTPRINT_RINGS[size][i] for i in sorted({i for c in near for i in at[c]})]


def developer_moves(state: JavaState, seat: int) -> list[Move]:
    land, budget = state.land, state.budget
    found: list[Move] = []
    if state.off_board[seat] > 0:
        for cell in sort_spaces(land.level):
            cost = land.entry_cost(cell)
            if cost is not None and cost <= budget and land.free_for_developer(cell):
                found.append(Enter(cell))
    mine = sort_spaces(c for c, s in land.developers.items() if s == seat)
    for cell in mine:
        cost = land.entry_cost(cell)
        if cost is not None and cost <= budget:
            found.append(Leave(cell))
    for cell in mine:
        costs = land.move_costs(cell)
        found += [
            MoveDeveloper(cell, target)
            for target in sort_spaces(costs)
            if target != cell and costs[target] <= budget
        ]
    return found


def palace_moves(state: JavaState, seat: int) -> list[Build | Enlarge]:
    land = state.land
    if state.budget < 1 or not any(s == seat for s in land.developers.values()):
        return []
    found: list[Build | Enlarge] = []
    seen: set[str] = set()
    for cell in sort_spaces(c for c in land.face if land.is_village(c)):
        if cell in seen:
            continue
        area = land.village_area(cell)
        seen |= area
        if strict_winner(land.positions(area)) != seat:
            continue
        palace = land.palace_of(area)
        allowed = [v for v in PALACE_VALUES if v <= len(area) and state.palace_supply[v] > 0]
        if palace is None:
            for spot in sort_spaces(area):
                if land.free_for_developer(spot):
                    found += [Build(spot, v) for v in allowed]
        elif land.palaces[palace].changed_turn != state.turn_number:
            current = land.palaces[palace].value
            found += [Enlarge(palace, v) for v in allowed if v > current]
    return sorted(found, key=lambda m: (type(m).__name__, SPACES[m.cell].col, m.cell, m.value))


def other_moves(state: JavaState, seat: int) -> list[Move]:
    found: list[Move] = []
    budget = state.budget
    if budget >= 1 and state.irrigation_left > 0:
        found += [
            Irrigate(c)
            for c in sort_spaces(SPACES)
            if SPACES[c].central
            and not SPACES[c].border
            and c not in state.land.irrigation
            and c not in state.land.level
        ]
    if budget >= 1 and state.cards_drawn < CARDS_PER_TURN:
        if state.faceup is not None:
            found.append(Draw(FACEUP))
        if state.deck or state.discards:
            found.append(Draw(DECK))
    if state.tokens[seat] > 0 and not state.token_used and seat not in state.reserves_kept:
        found.append(TakeToken())
    return found


def festival_moves(state: JavaState, seat: int) -> list[Move]:
    land = state.land
    if seat in state.reserves_kept:
        return []  # its cards are kept
    if state.duty_pending or cards.best_total(state.hands[seat], state.faceup) == 0:
        return []
    openings = list(cards.plays(state.hands[seat], state.faceup, 1))
    found: list[Move] = []
    for cell, city in land.cities():
        if not land.palaces[cell].festival and seat in land.positions(city):
            found += [Festival(cell, played) for played in openings]
    return found


def auction_moves(state: JavaState, seat: int) -> list[Move]:
    auction = state.auction
    assert auction is not None
    found: list[Move] = []
    if seat not in state.reserves_kept:  # else its cards are kept: it agrees or passes
        needed = auction.needed(seat)
        found += [PlayCards(p) for p in cards.plays(state.hands[seat], state.faceup, needed)]
    found.append(Agree() if auction.is_level(seat) else Pass())
    return found
