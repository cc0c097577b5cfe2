"""The few moves a Java bot weighs, best guesses first.

Early in the game a seat has thousands of legal tile placements and, later,
hundreds of developer walks; a search can afford about twenty. Each kind of
move is cut to its likeliest few by a quick look at the board (villages the
seat leads, its developers' neighbours, levels), and cheap moves that are
always worth a thought (a card, the action token, ending the turn) stay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from engine.games.java import cards, legal
from engine.games.java.board import NEIGHBORS
from engine.games.java.notation import (
    Agree,
    Build,
    EndTurn,
    Enlarge,
    Enter,
    Festival,
    Irrigate,
    Move,
    MoveDeveloper,
    Pass,
    PlaceTile,
    PlayCards,
)
from engine.games.java.positions import strict_winner
from engine.games.java.scoring import pond_scorer
from engine.games.java.tiles import RICE, TRIPLE, VILLAGE_FACE, faces

if TYPE_CHECKING:
    from engine.games.java.state import JavaState

TILE_CHOICES = 4
ENTER_CHOICES = 3
WALK_CHOICES = 4
VILLAGE_APPEAL = 4  # a developer in a village may count toward a palace
M = TypeVar("M")  # a kind of move


def choices(state: JavaState, seat: int) -> list[Move]:
    """The moves worth weighing for the seat to act, all legal."""
    if state.auction is not None:
        return auction_choices(state, seat)
    tiles = tile_choices(state, seat)
    others = legal.other_moves(state, seat)
    found: list[Move] = [
        *palace_choices(state, seat),
        *festival_choices(state, seat),
        *tiles,
        *developer_choices(state, seat),
        *irrigation_choices(state, seat, others),
        *(m for m in others if not isinstance(m, Irrigate)),
    ]
    if not (state.duty_pending and tiles):
        found.append(EndTurn())
    return found


def best_few(moves: Sequence[M], score: Callable[[M], float], keep: int) -> list[M]:
    """The `keep` best-scored moves; equal scores keep the legal order."""
    ranked = sorted(range(len(moves)), key=lambda i: (-score(moves[i]), i))
    return [moves[i] for i in ranked[:keep]]


# -- tiles --------------------------------------------------------------------


def tile_choices(state: JavaState, seat: int) -> list[PlaceTile]:
    """A few tiles, laid only while the turn's tile is still due: near the
    seat's developers and the villages first, anywhere when nothing is near."""
    if state.tile_placed or state.final_round:
        return []
    land = state.land
    near = {
        n
        for c, s in land.developers.items()
        if s == seat or land.is_village(c)
        for n in (c, *NEIGHBORS[c])
    } | {n for c in land.face if land.is_village(c) for n in (c, *NEIGHBORS[c])}
    moves: list[PlaceTile] = []
    if near:
        moves += legal.tile_moves(state, seat, near)
    if not moves:
        moves += legal.tile_moves(state, seat)
    lead = area_leads(state)
    return best_few(moves, lambda m: tile_appeal(state, seat, m, lead), TILE_CHOICES)


def area_leads(state: JavaState) -> dict[str, tuple[int | None, bool]]:
    """Each village space's area: the seat alone ahead there, and whether it has a palace."""
    land = state.land
    found: dict[str, tuple[int | None, bool]] = {}
    for cell in land.face:
        if land.is_village(cell) and cell not in found:
            area = land.village_area(cell)
            info = (strict_winner(land.positions(area)), land.palace_of(area) is not None)
            found.update(dict.fromkeys(area, info))
    return found


def tile_appeal(
    state: JavaState, seat: int, move: PlaceTile, lead: dict[str, tuple[int | None, bool]]
) -> float:
    """Villages grown where the seat leads, high ground beside its developers,
    little overhang, own tiles kept for later."""
    land = state.land
    score = -1.5 * land.overhang(move.cells) - (0 if move.kind == TRIPLE else 1.0)
    new = faces(move.kind, move.cells, move.village)
    for cell, face in new.items():
        height = land.level.get(cell, 0) + 1
        beside = [land.developers[n] for n in NEIGHBORS[cell] if n in land.developers]
        score += 0.5 * height * (beside.count(seat) - 0.5 * (len(beside) - beside.count(seat)))
        if face != VILLAGE_FACE:
            continue
        leaders = {lead[n] for n in NEIGHBORS[cell] if n in lead and n not in new}
        if not leaders:
            score += 0.5
        for leader, has_palace in leaders:
            if leader == seat:
                score += 2.0 if has_palace else 3.0
            elif leader is not None:
                score -= 2.0
    if move.kind == RICE:
        score -= 0.5
    return score


# -- developers, palaces, irrigation ----------------------------------------------


def cell_appeal(state: JavaState, cell: str) -> float:
    land = state.land
    return land.level[cell] + (VILLAGE_APPEAL if land.is_village(cell) else 0)


def developer_choices(state: JavaState, seat: int) -> list[Move]:
    """The best entries and the walks that gain the most ground."""
    moves = legal.developer_moves(state, seat)
    entries = [m for m in moves if isinstance(m, Enter)]
    walks = [
        m
        for m in moves
        if isinstance(m, MoveDeveloper)
        and cell_appeal(state, m.target) > cell_appeal(state, m.source)
    ]

    def entry(m: Move) -> float:
        assert isinstance(m, Enter)
        return cell_appeal(state, m.cell) - state.action_cost(m)

    def walk(m: Move) -> float:
        assert isinstance(m, MoveDeveloper)
        gain = cell_appeal(state, m.target) - cell_appeal(state, m.source)
        return gain - state.action_cost(m)

    return [*best_few(entries, entry, ENTER_CHOICES), *best_few(walks, walk, WALK_CHOICES)]


def palace_choices(state: JavaState, seat: int) -> list[Move]:
    """Per village the seat leads, its largest palace on the first free spot."""
    best: dict[str, Build | Enlarge] = {}
    for move in legal.palace_moves(state, seat):
        assert isinstance(move, Build | Enlarge)
        area = min(state.land.village_area(move.cell))
        kept = best.get(area)
        if kept is None or move.value > kept.value:
            best[area] = move
    return [best[a] for a in sorted(best)]


def festival_choices(state: JavaState, seat: int) -> list[Move]:
    """Per palace, the festival opened with every matching card."""
    best: dict[str, Festival] = {}
    for move in legal.festival_moves(state, seat):
        assert isinstance(move, Festival)
        kept = best.get(move.cell)
        if kept is None or cards.total(move.cards, state.faceup) > cards.total(
            kept.cards, state.faceup
        ):
            best[move.cell] = move
    return [best[c] for c in sorted(best)]


def irrigation_choices(state: JavaState, seat: int, others: list[Move]) -> list[Move]:
    """Irrigation (among the seat's `others` moves) that closes a pond it scores at once."""
    land = state.land
    found: list[Move] = []
    for move in others:
        if not isinstance(move, Irrigate):
            continue
        cell = move.cell
        if not all(n in land.level or n in land.irrigation for n in NEIGHBORS[cell]):
            continue
        land.irrigation.add(cell)
        try:
            pond = land.pond(cell)
            closed = all(n in land.level for n in land.pond_shore(pond))
            if closed and pond_scorer(land, pond) == seat:
                found.append(move)
        finally:
            land.irrigation.discard(cell)
    return found


# -- the festival auction -------------------------------------------------------


def auction_choices(state: JavaState, seat: int) -> list[Move]:
    """The cheapest play that keeps the seat in, the strongest, and stopping."""
    moves = legal.auction_moves(state, seat)
    plays = [m for m in moves if isinstance(m, PlayCards)]
    stop: list[Move] = [m for m in moves if isinstance(m, Agree | Pass)]
    if not plays:
        return stop

    def worth(m: PlayCards) -> tuple[int, int]:
        return cards.total(m.cards, state.faceup), len(m.cards)

    cheapest = min(plays, key=worth)
    strongest = max(plays, key=worth)
    kept: list[Move] = [cheapest] if cheapest == strongest else [cheapest, strongest]
    return [*kept, *stop]
