"""What a ruleset teaches its bots: how good a position is, and which moves to try.

Each game's `strategy` module registers a `Strategy` subclass for its
ruleset name; `engine.bots.levels` builds the levels from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from engine.bots.base import Bot
from engine.core.rng import SeededRandom
from engine.core.state import Result, State

S = TypeVar("S", bound=State[Any])  # the state of the strategy's ruleset
_STRATEGIES: dict[str, type[Strategy[Any]]] = {}


def outcome_values(result: Result, players: int) -> list[float]:
    """A finished game as values in [0, 1]: 1 for the winners, 0 for the last,
    evenly between; tied seats share their places' average."""
    values = [0.0] * players
    place = 0
    ranked = [group for group in result.ranking if group]
    steps = max(sum(len(g) for g in ranked) - 1, 1)
    for group in ranked:
        places = range(place, place + len(group))
        value = 1.0 - sum(places) / len(group) / steps
        for seat in group:
            values[seat] = value
        place += len(group)
    return values


class Strategy(Generic[S]):
    """The plain strategy: no knowledge of the game beyond its end.

    Subclasses give `values` a heuristic so searches may stop early
    (`rollout_moves`), narrow what is worth trying (`candidates`), and set
    the levels' budgets (`budgets`, iterations or evaluations per decision).
    """

    ruleset: ClassVar[str] = ""
    # Moves a search plays at random past its tree before it judges the
    # position with `values`; None plays on to the end of the game.
    rollout_moves: ClassVar[int | None] = None
    budgets: ClassVar[dict[str, int]] = {"medium": 100, "strong": 800}

    def values(self, state: S) -> list[float]:
        """Each seat's prospects in [0, 1], best 1, on a finished or running game."""
        result = state.result()
        if result is not None:
            return outcome_values(result, state.players)
        return [0.5] * state.players

    def candidates(self, state: S, seat: int) -> Sequence[Any]:
        """The moves a bot weighs, best guesses first; all legal moves here."""
        return state.legal_moves(seat)

    def rollout_move(self, state: S, seat: int, rng: SeededRandom) -> Any:
        """A quick move for play past the search tree."""
        return rng.choice(self.candidates(state, seat))

    def bot(self, level: str, key: str) -> Bot | None:
        """The ruleset's own bot for a level, or None for the generic one."""
        return None


R = TypeVar("R", bound=type[Strategy[Any]])  # a strategy class


def register_strategy(cls: R) -> R:
    """Class decorator: the strategy of `cls.ruleset`."""
    _STRATEGIES[cls.ruleset] = cls
    return cls


def strategy_for(ruleset: str) -> Strategy[Any]:
    """The registered strategy of a ruleset, or the plain one."""
    return _STRATEGIES.get(ruleset, Strategy)()
