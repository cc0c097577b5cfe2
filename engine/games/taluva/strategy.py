"""What Taluva teaches its bots: buildings ranked as the end ranks them, the
temples and towers a seat is ready to build, and the few tile placements
worth weighing among the hundreds the island offers.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from itertools import takewhile
from typing import ClassVar

from engine.bots.base import Bot
from engine.bots.strategy import Strategy, outcome_values, register_strategy
from engine.core.hexgrid import Hex, neighbors
from engine.games.taluva import ending
from engine.games.taluva.builds import TEMPLE_MIN_SPACES, TOWER_MIN_LEVEL, Builder
from engine.games.taluva.island import HUT, TEMPLE, TOWER, Island, Settlement
from engine.games.taluva.notation import Build, BuildAction, Extend, Move, PlaceTile
from engine.games.taluva.state import LAY_TILE, TaluvaState
from engine.games.taluva.turns import TurnSearch, TurnSearchBot

# Worth of a building placed, in the order the end ranks them: temples,
# then towers, then huts (two towers weigh less than a temple, twenty huts
# less than a tower).
WORTH = {TEMPLE: 1.0, TOWER: 0.45, HUT: 0.02}
# Every kind a seat has placed in full: two of them win at once.
KIND_COMPLETED = 0.6
# A seat with one kind placed in full whose next build can finish another:
# it wins then unless the others spoil the space first.
WIN_READY = 1.5
# A temple or a tower the seat could build at its next build.
TEMPLE_READY, TOWER_READY = 0.4, 0.3
# A seat with no build left is out of the game at its next tile; one whose
# huts run short of its turns to come is heading there.
STUCK = 3.0
# `strong`'s foresight: a settlement without a temple, by its spaces (three
# or more: a temple can go beside it), counted once per temple left.
PROSPECT = {1: 0.05, 2: 0.15, 3: 0.3}
HUT_SHORTFALL = 1.0
# A lead is squashed twice, sharply and gently, averaged: near an even game a
# hut's lead moves the value by about 0.01, and a seat a temple ahead or
# behind still tells a tower from a hut (a lead of one temple is worth 0.82).
MARGIN_SCALES = (0.25, 1.5)

# Placements a search weighs per tile, best by `placement_score` first, and
# the new settlements it weighs per build.
PLACEMENTS_WEIGHED = 10
HUTS_WEIGHED = 4
BUILD_ORDER = {TEMPLE: 0, TOWER: 1}
# The turn searches of `medium` and `strong` (`TurnSearchBot`): the whole
# turns each answers with the next seat's best turn, the tiles it deals that
# seat for it, and the placements of that seat's it follows to their builds.
TURN_SEARCHES = {
    "medium": TurnSearch(kept=2, deals=1, followed=1),
    "strong": TurnSearch(kept=5, deals=3, followed=3),
}


def seat_score(state: TaluvaState, seat: int, foresight: bool = False) -> float:
    """Buildings placed plus those ready to be placed; far below zero when out.
    With `foresight`, the temples the seat's settlements promise as well."""
    if seat in state.eliminated:
        return -STUCK
    stock = state.stocks[seat]
    score = sum(WORTH[kind] * count for kind, count in ending.built(stock).items())
    builder = Builder(state.island, seat, stock)
    if foresight:
        score += temple_prospects(builder.mine, stock[TEMPLE])
    # `legal` yields the single buildings first, then the extensions.
    singles = takewhile(lambda m: isinstance(m, Build), builder.legal())
    kinds = {move.kind for move in singles if isinstance(move, Build)}
    if TEMPLE in kinds:
        score += TEMPLE_READY
    if TOWER in kinds:
        score += TOWER_READY
    if not kinds and stock[HUT] == 0:
        score -= STUCK
    completed = ending.kinds_completed(stock)
    score += KIND_COMPLETED * completed
    if completed == 1 and any(kind in kinds and stock[kind] == 1 for kind in (TEMPLE, TOWER)):
        score += WIN_READY
    if completed < 2:
        score -= HUT_SHORTFALL * max(0, turns_left(state, seat) - stock[HUT])
    return score


def temple_prospects(settlements: Sequence[Settlement], temples_left: int) -> float:
    """The temples to come: settlements without one, biggest first, as many
    as the seat has temples left, each worth more the nearer it is to three
    spaces (a temple needs its own settlement of three)."""
    sizes = sorted((len(s.spaces) for s in settlements if s.temples == 0), reverse=True)
    return sum(PROSPECT[min(size, TEMPLE_MIN_SPACES)] for size in sizes[:temples_left])


def turns_left(state: TaluvaState, seat: int) -> int:
    """The builds `seat` still owes: this turn's if its tile is not laid yet,
    then one for each tile of the pile that comes round to it."""
    playing = state.in_play()
    if seat not in playing:
        return 0
    owed = 1 if seat == state.current and state.phase == LAY_TILE else 0
    after_current = (playing.index(seat) - playing.index(state.current)) % len(playing)
    if after_current == 0:
        after_current = len(playing)
    tiles = len(state.pile)
    if tiles >= after_current:
        owed += 1 + (tiles - after_current) // len(playing)
    return owed


def margin_values(scores: Sequence[float]) -> list[float]:
    """Each seat's lead over the best other seat, squashed into (0, 1)."""
    values = []
    for seat, score in enumerate(scores):
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        lead = score - best_other
        values.append(sum(0.5 / (1.0 + math.exp(-lead / scale)) for scale in MARGIN_SCALES))
    return values


class Neighbourhood:
    """Whose settlement holds each space, worked out once per island."""

    def __init__(self, island: Island, seat: int) -> None:
        self.island = island
        self.seat = seat
        self.settlement_of: dict[Hex, Settlement] = {}
        self._beside: dict[Hex, list[Settlement]] = {}
        for settlement in island.settlements():
            for space in settlement.spaces:
                self.settlement_of[space] = settlement

    def beside(self, space: Hex) -> list[Settlement]:
        """The settlements touching a space, each once, in the order of the directions."""
        found = self._beside.get(space)
        if found is None:
            found = self._beside[space] = []
            for n in neighbors(space):
                settlement = self.settlement_of.get(n)
                if settlement is not None and all(s is not settlement for s in found):
                    found.append(settlement)
        return found

    def placement_score(self, move: PlaceTile, towers_left: list[int]) -> float:
        """A quick guess at a placement's worth to the seat, without playing it:
        towers made possible for it or for others, huts and temples crushed."""
        cells = self.island.cells
        under = cells.get(move.volcano)
        level = under.level + 1 if under else 1
        score = 0.0
        crushed: dict[Hex, int] = {}
        for space in (move.left, move.right):
            cell = cells.get(space)
            if cell is not None and cell.building:
                sign = -1.0 if cell.owner == self.seat else 1.0
                score += sign * 0.03 * cell.huts
                key = self.settlement_of[space].key
                crushed[key] = crushed.get(key, 0) + 1
            for settlement in self.beside(space):
                mine = settlement.owner == self.seat
                if level >= TOWER_MIN_LEVEL and settlement.towers == 0:
                    if towers_left[settlement.owner]:
                        score += 0.5 if mine else -0.25
                elif mine:
                    score += 0.06 * level
        for key, count in crushed.items():
            settlement = self.settlement_of[key]
            size = len(settlement.spaces)
            if settlement.temples == 0 and size >= TEMPLE_MIN_SPACES > size - count:
                score += -0.4 if settlement.owner == self.seat else 0.3
        return score


def ordered_builds(state: TaluvaState, seat: int) -> list[BuildAction]:
    """Temples, towers, extensions by the huts they place, then a few new huts
    where there is most room to grow."""
    island = state.island
    builder = Builder(island, seat, state.stocks[seat])
    builds: list[Build] = []
    huts: list[Build] = []
    extensions: list[tuple[int, Extend]] = []
    for move in builder.legal():
        if isinstance(move, Extend):
            settlement = builder.settlement_at(move.settlement)
            assert settlement is not None
            placed = sum(
                island.cells[s].level for s in builder.extension_spaces(settlement, move.terrain)
            )
            extensions.append((placed, move))
        elif move.kind == HUT:
            huts.append(move)
        else:
            builds.append(move)
    builds.sort(key=lambda m: BUILD_ORDER[m.kind])
    extensions.sort(key=lambda pair: -pair[0])
    huts.sort(key=lambda m: -sum(1 for n in neighbors(m.at) if island.buildable(n)))
    return builds + [m for _, m in extensions] + huts[:HUTS_WEIGHED]


def best_placements(
    state: TaluvaState, seat: int, moves: Sequence[PlaceTile], count: int
) -> list[PlaceTile]:
    """The `count` placements among `moves` with the best quick guesses, ties
    in the order given."""
    around = Neighbourhood(state.island, seat)
    towers_left = [stock[TOWER] for stock in state.stocks]
    scored = sorted(range(len(moves)), key=lambda i: -around.placement_score(moves[i], towers_left))
    return [moves[i] for i in scored[:count]]


def position_key(state: TaluvaState, seat: int) -> Hashable:
    """What a seat's candidates depend on: the island, the stocks, the phase
    (not the tile in hand: a placement's worth is guessed from the island)."""
    cells = tuple(
        (space, cell.terrain, cell.level, cell.owner, cell.building, cell.huts)
        for space, cell in state.island.cells.items()
    )
    stocks = tuple(tuple(stock.values()) for stock in state.stocks)
    return seat, state.phase, stocks, cells


@register_strategy
class TaluvaStrategy(Strategy["TaluvaState"]):
    ruleset = "taluva"
    budgets: ClassVar[dict[str, int]] = {}  # no level uses the shared tree search

    def __init__(self, foresight: bool = False) -> None:
        # The turn searches weigh the temples their settlements promise (`seat_score`).
        self.foresight = foresight
        # A search meets the same island again and again under other piles:
        # its candidates are worked out once per decision.
        self._candidates: dict[Hashable, Sequence[Move]] = {}

    def values(self, state: TaluvaState) -> list[float]:
        result = state.result()
        if result is not None:
            return outcome_values(result, state.players)
        scores = [seat_score(state, seat, self.foresight) for seat in range(state.players)]
        return margin_values(scores)

    def candidates(self, state: TaluvaState, seat: int) -> Sequence[Move]:
        key = position_key(state, seat)
        known = self._candidates.get(key)
        if known is None:
            if state.phase == LAY_TILE:
                moves = state.legal_placements(seat)
                known = best_placements(state, seat, moves, PLACEMENTS_WEIGHED)
            else:
                known = ordered_builds(state, seat)
            self._candidates[key] = known
        return known

    def bot(self, level: str, key: str) -> Bot | None:
        search = TURN_SEARCHES.get(level)
        if search is None:
            return None
        return TurnSearchBot(key, TaluvaStrategy(foresight=True), search)
