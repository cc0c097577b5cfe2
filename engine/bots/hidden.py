"""What a bot may know: its seat's view, with everything else re-dealt.

A bot is handed the real position, so every bot that looks beyond the legal
moves starts from `seat_sample`: a copy in which all the seat cannot see
(face-down piles, other seats' hands, secret picks, the seed and the chance
still to come) is replaced by a deal drawn from the bot's own randomness.
Rulesets implement `State.redeal_unseen` so that the sample depends only on
what the seat has seen and on that randomness.
"""

from __future__ import annotations

from typing import Any, TypeVar

from engine.core.rng import SeededRandom
from engine.core.state import State

HIDDEN_SEED = "unknown to the bot"
StateT = TypeVar("StateT", bound=State[Any])


def seat_sample(state: StateT, seat: int, rng: SeededRandom) -> StateT:
    """A position `seat` cannot tell from the real one."""
    sample = state.copy()
    sample.seed = HIDDEN_SEED
    sample.redeal_unseen(seat, rng)
    return sample
