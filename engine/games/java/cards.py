"""Festival cards: three symbols, six kinds (each symbol and each pair), five of each.

A card is written with its symbols' letters: M mask, D drum, P puppet
(`M`, `MD`, `DP`...). Its worth in a festival is the number of symbols it
shares with the face-up card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import product

SYMBOLS = "MDP"
SYMBOL_NAMES = {"M": "mask", "D": "drum", "P": "puppet"}
KINDS = ("M", "D", "P", "MD", "MP", "DP")
COPIES = 5
UNKNOWN = "a card from the deck"  # a trial's draw: chance concealed


def canonical(symbols: Iterable[str]) -> str:
    """Symbols in M, D, P order: the one spelling of a card."""
    chosen = set(symbols)
    return "".join(s for s in SYMBOLS if s in chosen)


def full_deck() -> list[str]:
    return [kind for kind in KINDS for _ in range(COPIES)]


def value(card: str, faceup: str | None) -> int:
    """Symbols the card shares with the requirement (0: it may not be played)."""
    return len(set(card) & set(faceup)) if faceup else 0


def total(cards: Iterable[str], faceup: str | None) -> int:
    return sum(value(c, faceup) for c in cards)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in kind order; a trial's unknown cards last."""
    return tuple(sorted(cards, key=lambda c: KINDS.index(c) if c in KINDS else len(KINDS)))


def matching(hand: Iterable[str], faceup: str | None) -> Counter[str]:
    return Counter(c for c in hand if value(c, faceup) > 0)


def plays(hand: Iterable[str], faceup: str | None, at_least: int) -> Iterator[tuple[str, ...]]:
    """Every non-empty set of matching cards from the hand worth `at_least` or more."""
    counts = matching(hand, faceup)
    kinds = sort_cards(counts)
    for numbers in product(*(range(counts[k] + 1) for k in kinds)):
        chosen = tuple(k for k, n in zip(kinds, numbers, strict=True) for _ in range(n))
        if chosen and total(chosen, faceup) >= at_least:
            yield chosen


def best_total(hand: Iterable[str], faceup: str | None) -> int:
    return total(matching(hand, faceup).elements(), faceup)
