"""The random bot: a uniform pick among the legal moves, from its own seeded stream."""

from __future__ import annotations

from typing import Any

from engine.core.rng import SeededRandom
from engine.core.state import State


class RandomBot:
    def __init__(self, seed: str) -> None:
        self.rng = SeededRandom(seed, "bot")

    def choose(self, state: State, seat: int) -> Any:
        moves = state.legal_moves(seat)
        if not moves:
            raise RuntimeError(f"seat {seat} is asked to act but has no legal move")
        return self.rng.choice(moves)
