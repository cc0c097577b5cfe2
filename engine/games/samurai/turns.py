"""Samurai's `strong` level: whole turns, each answered by the other seats' turns.

A Samurai turn is one normal tile with any number of fast ones (ships, the
ronin, the figure exchange), and their worth shows only together: a ship
that tips a settlement's lead counts only if the land tile closing it comes
too. A tree search at a few hundred iterations spread its visits over every
order of the same tiles, so this bot plans the turn itself: a beam of the
best partial turns, judged by the outlook, until each ends. The best few
whole turns are then answered by every other seat's own best turn, and
followed by the bot's next one, over a few deals of what the bot cannot see
(the same deals for every turn, so they are compared fairly); the turn that
leaves it best off is played. It plans again at each of its moves.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engine.bots.base import Bot, some_moves
from engine.bots.hidden import seat_sample
from engine.bots.strategy import Strategy
from engine.core.rng import SeededRandom
from engine.core.state import State
from engine.games.samurai.notation import EndTurn
from engine.games.samurai.redeal import strongest_hands
from engine.games.samurai.state import SamuraiState

MAX_TURN_MOVES = 8  # a hand holds five tiles, then `end`


@dataclass
class Plan:
    """A whole turn: its first move, the position where it ends, its value."""

    first: Any
    end: SamuraiState
    value: float


def _position(state: SamuraiState) -> Hashable:
    """What a partial turn has changed: the same tiles in another order are one turn."""
    return (
        tuple(sorted(state.tiles.items())),
        tuple(tuple(f) for f in state.figures.values()),
        tuple(sorted(state.played)),
    )


def plan_turn(
    strategy: Strategy[SamuraiState], state: SamuraiState, seat: int, width: int
) -> list[Plan]:
    """The whole turns of `seat` from `state` that a beam of `width` partial
    turns finds among the strategy's candidates, best first."""
    done: list[Plan] = []
    seen: set[Hashable] = set()
    frontier: list[tuple[float, int, Any, SamuraiState]] = [(0.0, 0, None, state)]
    for _ in range(MAX_TURN_MOVES):
        grown: list[tuple[float, int, Any, SamuraiState]] = []
        for _value, _order, first, position in frontier:
            for move in strategy.candidates(position, seat):
                after = position.copy()
                after.apply(seat, move)
                value = strategy.values(after)[seat]
                start = move if first is None else first
                if isinstance(move, EndTurn) or after.is_over():
                    done.append(Plan(start, after, value))
                    continue
                key = _position(after)
                if key not in seen:
                    seen.add(key)
                    grown.append((value, len(grown), start, after))
        grown.sort(key=lambda item: (-item[0], item[1]))
        frontier = grown[:width]
        if not frontier:
            break
    done.sort(key=lambda plan: -plan.value)
    return done


class TurnSearchBot(Bot):
    """Plays the first move of the best whole turn: the `kept` best turns of a
    beam of `width` are each answered, over `deals` deals, by the other seats'
    best turns and the bot's own next one (a beam of `reply_width`), and
    judged where they leave the bot's seat."""

    def __init__(
        self,
        key: str,
        strategy: Strategy[SamuraiState],
        width: int,
        kept: int,
        deals: int,
        reply_width: int,
    ) -> None:
        super().__init__(key)
        self.key = key
        self.strategy = strategy
        self.width = width
        self.kept = kept
        self.deals = deals
        self.reply_width = reply_width

    def choose(self, state: State[Any], seat: int) -> Any:
        assert isinstance(state, SamuraiState)
        first = some_moves(self.strategy.candidates(state, seat), seat)
        if len(first) == 1:
            return first[0]
        sample = seat_sample(state, seat, self.rng)
        plans = plan_turn(self.strategy, sample, seat, self.width)[: self.kept]
        if len({plan.first for plan in plans}) == 1:
            return plans[0].first
        return max(plans, key=lambda plan: self._answered(plan.end, seat)).first

    def _answered(self, end: SamuraiState, seat: int) -> float:
        """`seat`'s mean value once every other seat has played its best turn
        and `seat` its own next one, so that the value is taken at the same
        point of the round as the turns were ranked (a settlement left for
        whoever comes first is then weighed with the right seat to take it).
        In the first deal the other seats hold their strongest tiles, the
        threat to fear."""
        total = 0.0
        for deal in range(self.deals):
            position = seat_sample(end, seat, SeededRandom(self.key, f"deal {deal}"))
            if deal == 0:
                strongest_hands(position, seat)
            while not position.is_over() and position.current != seat:
                actor = position.current
                position = plan_turn(self.strategy, position, actor, self.reply_width)[0].end
            if not position.is_over():
                position = plan_turn(self.strategy, position, seat, self.reply_width)[0].end
            total += self.strategy.values(position)[seat]
        return total / self.deals
