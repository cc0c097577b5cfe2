"""Random bots, each drawing from its own seeded stream."""

from __future__ import annotations

from typing import Any

from engine.core.rng import SeededRandom
from engine.core.state import State


class RandomBot:
    """A uniform pick among the legal moves."""

    def __init__(self, seed: str) -> None:
        self.rng = SeededRandom(seed, "bot")

    def choose(self, state: State, seat: int) -> Any:
        return self.rng.choice(self.candidates(state, seat))

    def candidates(self, state: State, seat: int) -> list[Any]:
        moves = state.legal_moves(seat)
        if not moves:
            raise RuntimeError(f"seat {seat} is asked to act but has no legal move")
        return moves


class KindsBot(RandomBot):
    """A uniform pick among the kinds of legal move, then among the moves of
    that kind: rare kinds (a Java palace enlarged) get played, where the
    uniform bot drowns them among hundreds of developer steps."""

    def choose(self, state: State, seat: int) -> Any:
        kinds: dict[type, list[Any]] = {}
        for move in self.candidates(state, seat):
            kinds.setdefault(type(move), []).append(move)
        return self.rng.choice(self.rng.choice(list(kinds.values())))


BOTS: dict[str, type[RandomBot]] = {"uniform": RandomBot, "kinds": KindsBot}
