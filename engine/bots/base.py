"""What every bot is: a seeded chooser of one move for one seat."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sized
from typing import Any, TypeVar

from engine.core.rng import SeededRandom
from engine.core.state import State

Moves = TypeVar("Moves", bound=Sized)


class NoLegalMove(RuntimeError):
    """A bot asked for the move of a seat that cannot act: its caller's bug."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is asked to act but has no legal move")


def some_moves(moves: Moves, seat: int) -> Moves:
    """`moves` as they are (no copy: a Java list is thousands long), unless
    there are none."""
    if not moves:
        raise NoLegalMove(seat)
    return moves


class Bot(ABC):
    """Chooses a move for a seat that may act.

    `key` seeds the bot's own randomness (a server uses the game's seed, the
    seat and the ply), so the same position always gets the same move and a
    bot's play can be checked after the game. Budgets count iterations or
    evaluations, never seconds, for the same reason.
    """

    def __init__(self, key: str) -> None:
        self.rng = SeededRandom(key, "bot")

    @abstractmethod
    def choose(self, state: State[Any], seat: int) -> Any:
        """A legal move of `seat` in `state`; `state` is left unchanged."""
