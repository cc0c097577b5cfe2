"""Bot games on the engine alone: the strength and speed of the levels."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots.levels import decision_key, make_bot
from engine.core.game import Game

MAX_DECISIONS = 20_000


class UnendedGame(RuntimeError):
    """A bot game that ran past MAX_DECISIONS: uniform random Java players
    can move developers about for free for a very long time."""


@dataclass
class MatchGame:
    """One finished bot game and how long each seat thought."""

    game: Game
    bots: tuple[str, ...]
    seconds: list[list[float]]  # per seat, one entry per decision

    def summary(self) -> dict[str, Any]:
        """The game as one JSON object: bots, result, seconds per decision."""
        result = self.game.result()
        assert result is not None
        return {
            "ruleset": self.game.ruleset.name,
            "seed": self.game.seed,
            "bots": list(self.bots),
            "result": result.to_json(),
            "decisions": [len(s) for s in self.seconds],
            "seconds_per_decision": {
                "mean": [round(sum(s) / len(s), 4) if s else 0.0 for s in self.seconds],
                "max": [round(max(s), 4) if s else 0.0 for s in self.seconds],
            },
        }


def play_match_game(
    ruleset: str, bots: Sequence[str], seed: str, options: Mapping[str, Any] | None = None
) -> MatchGame:
    """Seat i is played by the bot of level `bots[i]`; seats acting at once
    move lowest first, so the game depends only on the seed and the bots."""
    game = Game.new(ruleset, [f"{level}{i + 1}" for i, level in enumerate(bots)], seed, options)
    seconds: list[list[float]] = [[] for _ in bots]
    while not game.state.is_over():
        if len(game.log) >= MAX_DECISIONS:
            raise UnendedGame(f"{ruleset} game {seed!r} did not end in {MAX_DECISIONS} moves")
        seat = min(game.state.to_act())
        bot = make_bot(bots[seat], ruleset, decision_key(seed, seat, len(game.log)))
        started = time.process_time()
        move = bot.choose(game.state, seat)
        seconds[seat].append(time.process_time() - started)
        game.push(seat, move)
    return MatchGame(game, tuple(bots), seconds)
