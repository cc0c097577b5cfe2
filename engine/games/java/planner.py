"""Java's `medium` and `strong` bots: they plan the whole turn, not one action.

A Java turn is several actions whose worth shows only together (lay a tile,
step a developer onto it, build a palace there), so the bots search the
seat's own turn: a beam of the best partial turns, judged by the outlook,
until each ends (a festival is played out with every seat keeping up at the
cheapest). The first action of the best whole turn is played; the next
decision plans again. `strong` also lets each other seat answer its best
turns with a plan of its own, and keeps the turn that leaves it best off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.bots.base import Bot, some_moves
from engine.bots.hidden import seat_sample
from engine.bots.strategy import Strategy
from engine.core.state import State
from engine.games.java.state import JavaState

MAX_TURN_ACTIONS = 16


@dataclass
class Plan:
    """A whole turn: its first action and the position where it ends."""

    first: Any
    end: JavaState
    value: float


def settle_auction(strategy: Strategy[JavaState], state: JavaState) -> None:
    """Plays a running festival out: each seat keeps up at the cheapest."""
    while state.auction is not None:
        actor = min(state.to_act())
        state.apply(actor, strategy.candidates(state, actor)[0])


def turn_over(state: JavaState, seat: int) -> bool:
    return state.is_over() or seat not in state.to_act()


def plan_turn(strategy: Strategy[JavaState], state: JavaState, seat: int, width: int) -> list[Plan]:
    """Whole turns of `seat` from `state` found by a beam of `width`, best first."""
    done: list[Plan] = []
    frontier: list[tuple[float, int, Any, JavaState]] = []
    order = 0

    def grow(first: Any, before: JavaState, move: Any) -> None:
        nonlocal order
        after = before.copy()
        after.apply(seat, move)
        if after.auction is not None and seat not in after.to_act():
            settle_auction(strategy, after)
        value = strategy.values(after)[seat]
        if turn_over(after, seat):
            done.append(Plan(first, after, value))
        else:
            frontier.append((value, order, first, after))
        order += 1

    for move in strategy.candidates(state, seat):
        grow(move, state, move)
    for _ in range(MAX_TURN_ACTIONS):
        if not frontier:
            break
        frontier.sort(key=lambda item: (-item[0], item[1]))
        beam, frontier = frontier[:width], []
        for _value, _order, first, position in beam:
            for move in strategy.candidates(position, seat):
                grow(first, position, move)
    for value, _order, first, position in frontier:
        done.append(Plan(first, position, value))
    done.sort(key=lambda plan: -plan.value)
    return done


class TurnPlanBot(Bot):
    """Plays the first action of the best whole turn found by a beam of `width`.

    With `replies`, the best few turns are each answered by the next seats'
    own plans (beam `reply_width`), and judged where those answers leave it.
    """

    def __init__(
        self,
        key: str,
        strategy: Strategy[JavaState],
        width: int,
        replies: int = 0,
        reply_width: int = 1,
    ) -> None:
        super().__init__(key)
        self.strategy = strategy
        self.width = width
        self.replies = replies
        self.reply_width = reply_width

    def choose(self, state: State[Any], seat: int) -> Any:
        sample = seat_sample(state, seat, self.rng)
        assert isinstance(sample, JavaState)
        first = some_moves(self.strategy.candidates(sample, seat), seat)
        if len(first) == 1:
            return first[0]
        plans = plan_turn(self.strategy, sample, seat, self.width)
        if self.replies:
            plans = self._answered(plans[: self.replies], seat)
        return plans[0].first

    def _answered(self, plans: list[Plan], seat: int) -> list[Plan]:
        """The plans judged after each other seat's best answer, best first."""
        judged = []
        for plan in plans:
            position = plan.end
            while not position.is_over() and seat not in position.to_act():
                actor = min(position.to_act())
                answers = plan_turn(self.strategy, position, actor, self.reply_width)
                position = answers[0].end
            judged.append(Plan(plan.first, position, self.strategy.values(position)[seat]))
        judged.sort(key=lambda plan: -plan.value)
        return judged
