"""Random bots: the `random` level, and the engine's own load and end-to-end players."""

from __future__ import annotations

from typing import Any

from engine.bots.base import Bot, some_moves
from engine.core.state import State


class RandomBot(Bot):
    """A uniform pick among the legal moves."""

    def choose(self, state: State[Any], seat: int) -> Any:
        return self.rng.choice(self.candidates(state, seat))

    def candidates(self, state: State[Any], seat: int) -> list[Any]:
        return some_moves(state.legal_moves(seat), seat)


class KindsBot(RandomBot):
    """A uniform pick among the kinds of legal move, then among the moves of
    that kind: rare kinds (a Java palace enlarged) get played, where the
    uniform bot drowns them among hundreds of developer steps."""

    def choose(self, state: State[Any], seat: int) -> Any:
        kinds: dict[type, list[Any]] = {}
        for move in self.candidates(state, seat):
            kinds.setdefault(type(move), []).append(move)
        return self.rng.choice(self.rng.choice(list(kinds.values())))


# The engine's self-play bots (`python -m engine selfplay --bot`).
SELFPLAY_BOTS: dict[str, type[RandomBot]] = {"uniform": RandomBot, "kinds": KindsBot}
