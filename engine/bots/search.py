"""The `medium` and `strong` levels: Monte Carlo tree search over re-dealt positions.

Single-observer information-set MCTS: every iteration re-deals what the
bot's seat cannot see (`seat_sample`), walks one shared tree choosing among
the moves legal in that deal (UCB1 counting how often a move was available),
adds one node, plays `rollout_moves` quick moves and backs up the ruleset's
values, so hidden information is averaged over rather than peeked at.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from engine.bots.base import Bot, some_moves
from engine.bots.hidden import seat_sample
from engine.bots.strategy import Strategy
from engine.core.state import State

EXPLORATION = 0.7


class Node:
    """A move in the tree, with the seat that made it and what came of it."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0

    def score(self) -> float:
        return self.total / self.visits + EXPLORATION * math.sqrt(
            math.log(self.available) / self.visits
        )


def acting_seat(state: State[Any]) -> int:
    """The seat a search moves next; seats acting at once move lowest first."""
    return min(state.to_act())


class SearchBot(Bot):
    """`iterations` re-deals and descents per decision."""

    def __init__(self, key: str, strategy: Strategy[Any], iterations: int) -> None:
        super().__init__(key)
        self.strategy = strategy
        self.iterations = iterations

    def choose(self, state: State[Any], seat: int) -> Any:
        first = some_moves(list(self.strategy.candidates(state, seat)), seat)
        if len(first) == 1:
            return first[0]
        root = Node(None)
        for _ in range(self.iterations):
            self._iterate(root, seat_sample(state, seat, self.rng), seat)
        return max(first, key=lambda m: root.children[m].visits if m in root.children else -1)

    def _iterate(self, root: Node, sample: State[Any], seat: int) -> None:
        node, path = root, [root]
        actor = seat
        while True:
            moves = self.strategy.candidates(sample, actor)
            untried = [m for m in moves if m not in node.children]
            for move in moves:
                child = node.children.get(move)
                if child is not None:
                    child.available += 1
            if untried:
                move = self.rng.choice(untried)
                child = node.children[move] = Node(actor)
                child.available = 1
                sample.apply(actor, move)
                path.append(child)
                break
            children = node.children
            move = max(moves, key=lambda m: children[m].score())
            node = children[move]
            sample.apply(actor, move)
            path.append(node)
            if sample.is_over():
                break
            actor = acting_seat(sample)
        values = self._rollout(sample)
        for visited in path:
            visited.visits += 1
            if visited.mover is not None:
                visited.total += values[visited.mover]

    def _rollout(self, sample: State[Any]) -> list[float]:
        limit = self.strategy.rollout_moves
        played = 0
        while not sample.is_over() and (limit is None or played < limit):
            actor = acting_seat(sample)
            sample.apply(actor, self.strategy.rollout_move(sample, actor, self.rng))
            played += 1
        return self.strategy.values(sample)
