"""What Samurai teaches its bots: a strong opening hand, figures set out in
order, and in play only the tiles that touch a settlement still holding
figures, the best few by their effect on the outlook (`evaluation`), and
which bot plays each level."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from engine.bots.base import Bot
from engine.bots.greedy import GreedyBot
from engine.bots.strategy import Strategy, outcome_values, register_strategy
from engine.games.samurai import placement
from engine.games.samurai.evaluation import PLAIN, SHARP, Judgement, Outlook, settlements_near
from engine.games.samurai.notation import (
    ChooseTiles,
    EndTurn,
    FigureExchange,
    Move,
    PlayTile,
    TokenExchange,
)
from engine.games.samurai.tiles import UNKNOWN, in_order, kind
from engine.games.samurai.turns import TurnSearchBot

if TYPE_CHECKING:
    from engine.games.samurai.state import SamuraiState

# The strongest tile of each figure and two samurai: influence wherever needed.
OPENING = ChooseTiles(tuple(in_order(["helmet4", "buddha4", "rice4", "samurai3", "samurai2"])))
Judged = tuple[Move, list[float]]  # a move and the values it leads to
WIDTH = 8  # tile moves weighed at each step, beside ending the turn
# `strong` (`turns.TurnSearchBot`): partial turns in its beam, whole turns
# answered, deals they are answered over, the answering seats' beam.
TURN_WIDTH, TURNS_KEPT, REPLY_DEALS, REPLY_WIDTH = 8, 8, 3, 2


@register_strategy
class SamuraiStrategy(Strategy["SamuraiState"]):
    """`easy` plays the best move by the plain judgement; `medium` the best by
    the sharp one; `strong` plans whole turns, answered (`turns`)."""

    ruleset = "samurai"
    budgets: ClassVar[dict[str, int]] = {}  # no level uses the shared tree search

    def __init__(self, judgement: Judgement = PLAIN) -> None:
        self.judgement = judgement

    def values(self, state: SamuraiState) -> list[float]:
        result = state.result()
        if result is not None:
            return outcome_values(result, state.players)
        return Outlook(state, self.judgement).values()

    def candidates(self, state: SamuraiState, seat: int) -> Sequence[Any]:
        """The opening hand; the first figure placement in the catalogue; in
        play the best `WIDTH` tile moves, then `end` once a tile is down."""
        if state.phase == "choose":
            return [OPENING]
        legal_first = state.phase == "figures" or UNKNOWN in state.hands[seat]
        if legal_first:
            return state.legal_moves(seat)[:1]
        ranked = ranked_tile_moves(state, seat, self.judgement)
        moves: list[Move] = [move for _, move in ranked[:WIDTH]]
        if state.played:
            moves.append(EndTurn())
        return moves or state.legal_moves(seat)

    def bot(self, level: str, key: str) -> Bot | None:
        sharp = SamuraiStrategy(SHARP)
        if level == "medium":
            return GreedyBot(key, sharp)
        if level == "strong":
            return TurnSearchBot(key, sharp, TURN_WIDTH, TURNS_KEPT, REPLY_DEALS, REPLY_WIDTH)
        return None


def ranked_tile_moves(
    state: SamuraiState, seat: int, judgement: Judgement = PLAIN
) -> list[tuple[float, Move]]:
    """The tile moves worth weighing, best for `seat` first (ties in catalogue order)."""
    outlook = Outlook(state, judgement)
    judged: list[tuple[float, int, Move]] = []
    for move, values in _judged_moves(state, seat, outlook):
        judged.append((-values[seat], len(judged), move))
    judged.sort(key=lambda item: item[:2])
    return [(-value, move) for value, _, move in judged]


def open_spaces(state: SamuraiState) -> list[int]:
    """Empty spaces next to a settlement that still holds figures."""
    board = state.board
    found = {
        n
        for s, figures in state.figures.items()
        if figures
        for n in board.space(s).neighbors
        if n not in state.tiles
    }
    return sorted(found)


def _fits(state: SamuraiState, code: str, space: int) -> bool:
    return state.board.space(space).is_sea == kind(code).is_ship


def _judged_moves(state: SamuraiState, seat: int, outlook: Outlook) -> Iterator[Judged]:
    spaces = open_spaces(state)
    for code in dict.fromkeys(state.hands[seat]):
        if placement.turn_error(state.hands[seat], state.played, code) is not None:
            continue
        if state.holds_back(seat, code):
            continue
        if code == placement.FIGURE_EXCHANGE:
            yield from _figure_exchanges(state, outlook)
        elif code == placement.TOKEN_EXCHANGE:
            yield from _token_exchanges(state, seat, outlook, spaces)
        else:
            yield from _placements(state, seat, outlook, code, spaces)


def _placements(
    state: SamuraiState, seat: int, outlook: Outlook, code: str, spaces: list[int]
) -> Iterator[Judged]:
    fitting = [s for s in spaces if _fits(state, code, s)]
    for space in fitting:
        yield PlayTile(code, space), outlook.with_tile(space, seat, code)
    if not fitting:  # nowhere it counts: out of the way, to keep the turn going
        board = state.board
        spare = [
            s for s in (board.sea if kind(code).is_ship else board.land) if s not in state.tiles
        ]
        if spare:
            yield PlayTile(code, spare[0]), outlook.values()


def _token_exchanges(
    state: SamuraiState, seat: int, outlook: Outlook, spaces: list[int]
) -> Iterator[Judged]:
    """Only tiles standing where no figure is left move: pure gain elsewhere."""
    near = settlements_near(state.players)
    idle = sorted(
        s
        for s, (owner, _) in state.tiles.items()
        if owner == seat and not any(state.figures[n] for n in near[s])
    )
    for space in idle:
        lifted = state.tiles[space][1]
        for target in spaces:
            if _fits(state, lifted, target):
                yield TokenExchange(space, target), outlook.with_tile(target, seat, lifted)


def _figure_exchanges(state: SamuraiState, outlook: Outlook) -> Iterator[Judged]:
    """Swaps between two settlements no tile touches yet change nothing now."""
    placed = [(s, f) for s, figures in state.figures.items() for f in figures]
    for i, (a, fa) in enumerate(placed):
        for b, fb in placed[i + 1 :]:
            if a == b or fa == fb or not (outlook.touched(a) or outlook.touched(b)):
                continue
            move = FigureExchange.between(a, fa, b, fb)
            if placement.figure_exchange_error(state.board, state.figures, move) is not None:
                continue
            swapped = {a: list(state.figures[a]), b: list(state.figures[b])}
            placement.swap(swapped, move)
            yield move, outlook.with_figures(swapped)
