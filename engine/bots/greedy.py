"""The `easy` level: one move of look-ahead, judged by the ruleset's values."""

from __future__ import annotations

from typing import Any

from engine.bots.base import Bot, NoLegalMove
from engine.bots.hidden import seat_sample
from engine.bots.strategy import Strategy
from engine.core.state import State


class GreedyBot(Bot):
    """Plays the candidate after which its seat's value is highest; ties go
    to the earlier candidate, so the ruleset's move order breaks them."""

    def __init__(self, key: str, strategy: Strategy[Any]) -> None:
        super().__init__(key)
        self.strategy = strategy

    def choose(self, state: State[Any], seat: int) -> Any:
        sample = seat_sample(state, seat, self.rng)
        best: Any = None
        best_value = -1.0
        for move in self.strategy.candidates(sample, seat):
            after = sample.copy()
            after.apply(seat, move)
            value = self.strategy.values(after)[seat]
            if value > best_value:
                best, best_value = move, value
        if best is None:
            raise NoLegalMove(seat)
        return best
