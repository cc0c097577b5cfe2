"""What a seat cannot see in Samurai, re-dealt for a bot's search.

Behind another seat's screen lie its hand and its opening choice; every pile
is face down, the seat's own too (its owner knows only which tiles it holds).
Which of another seat's 20 tiles are still unplayed is public, so its hand
and pile are re-dealt from those; the piles' future order and the streams
that would shuffle them are replaced from the bot's randomness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.rng import SeededRandom
from engine.games.samurai.tiles import COLOUR_SET, HAND_SIZE, KINDS, in_order

if TYPE_CHECKING:
    from engine.games.samurai.state import SamuraiState

STREAM_SEED_BITS = 62


def redeal_unseen(state: SamuraiState, seat: int, rng: SeededRandom) -> None:
    """Re-deal in place, pooling each seat's unseen tiles in catalogue order first."""
    for other in range(state.players):
        state.pile_rngs[other] = SeededRandom(str(rng.randbelow(1 << STREAM_SEED_BITS)), "pile")
        if other != seat and state.choices[other] is not None:
            state.choices[other] = tuple(in_order(rng.sample(COLOUR_SET, HAND_SIZE)))
        unseen = state.piles[other] if other == seat else state.hands[other] + state.piles[other]
        pool = in_order(unseen)
        rng.shuffle(pool)
        if other == seat:
            state.piles[seat] = pool
        else:
            kept = len(state.hands[other])
            state.hands[other] = in_order(pool[:kept])
            state.piles[other] = pool[kept:]


def strongest_hands(state: SamuraiState, seat: int) -> None:
    """Give every other seat, in place, the strongest of its unplayed tiles:
    the hand to fear. An opening hand is chosen, so early on it is the
    likely one too. Which tiles a seat has not played is public."""
    for other in range(state.players):
        if other == seat:
            continue
        pool = in_order(state.hands[other] + state.piles[other])  # ties in catalogue order
        pool.sort(key=lambda c: -KINDS[c].strength if c in KINDS else 0)
        kept = len(state.hands[other])
        state.hands[other] = in_order(pool[:kept])
        state.piles[other] = pool[kept:]
