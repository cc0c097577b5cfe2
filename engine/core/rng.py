"""A random stream derived from the game's seed with SHA-256.

Python's own `random` may change its algorithms between releases, which would
break the replay of old records; this stream is fixed forever and simple
enough that any player can re-check every draw once the seed is revealed.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD = 8  # bytes per draw
_LIMIT = 1 << (8 * _WORD)


def seed_commitment(seed: str) -> str:
    """The public SHA-256 of the seed, shown from the first move on."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class SeededRandom:
    """Counter-mode SHA-256 stream: block i is sha256(seed NUL stream NUL i)."""

    def __init__(self, seed: str, stream: str = "") -> None:
        self.seed = seed
        self.stream = stream
        self.counter = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeededRandom) and vars(self) == vars(other)

    def _word(self) -> int:
        block = f"{self.seed}\x00{self.stream}\x00{self.counter}".encode()
        self.counter += 1
        return int.from_bytes(hashlib.sha256(block).digest()[:_WORD], "big")

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection so no value is favoured."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        ceiling = _LIMIT - _LIMIT % n
        while True:
            word = self._word()
            if word < ceiling:
                return word % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]
