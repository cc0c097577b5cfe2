"""The legal moves as a reader can take them in: grouped by kind (the move's
first word) and within a kind by the space it names first, so a keyboard or
screen-reader user opens the one group they want instead of walking through
thousands of buttons; the moves of one word (end, pass, agree) stand apart,
never closed away below hundreds of tiles; and a list that is only every way
to pick some of a set of things (Samurai's opening) becomes that set, to tick."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pbem.render.lastturn import names_by_key, spaces_in

# A kind with no more moves than this is listed as it is, not by space.
SHORT_KIND = 12
# More moves than this (Java's first placements: over 2,000) would pass the
# page's weight budget: the page then lists the groups, and shows the moves
# of the one group asked for.
FULL_LIST = 1000


@dataclass(frozen=True)
class MoveGroup:
    """Moves of one kind about one space; `label` is empty when the kind is
    listed whole."""

    label: str
    moves: tuple[str, ...]

    @property
    def key(self) -> str:
        """What a page's ?moves= names it by: the kind and the label."""
        return f"{self.moves[0].split(' ', 1)[0]} {self.label}"


@dataclass(frozen=True)
class MoveKind:
    kind: str
    groups: tuple[MoveGroup, ...]

    @property
    def count(self) -> int:
        return sum(len(group.moves) for group in self.groups)


@dataclass(frozen=True)
class Choice:
    """The legal moves are exactly every way to write `head` and `count` of
    `items` (an item may be there twice, like two equal tiles)."""

    head: str
    count: int
    items: tuple[str, ...]


def lone_moves(moves: Iterable[str]) -> list[str]:
    """The moves of one word (end, pass, agree, token): each a kind of its
    own, shown first as buttons of their own, never in a group."""
    return [move for move in moves if " " not in move]


def group_moves(moves: Iterable[str], spaces: Iterable[str]) -> list[MoveKind]:
    """Kinds in the order the engine lists them, each kind's moves grouped by
    the first board space they name (or, naming none, by their first argument,
    such as a new tile's place off the known board); the lone moves aside."""
    by_kind: dict[str, list[str]] = {}
    for move in moves:
        if " " in move:
            by_kind.setdefault(move.split(" ", 1)[0], []).append(move)
    by_key = names_by_key(spaces)
    return [MoveKind(kind, _by_space(texts, by_key)) for kind, texts in by_kind.items()]


def _by_space(moves: list[str], by_key: dict[str, str]) -> tuple[MoveGroup, ...]:
    if len(moves) <= SHORT_KIND:
        return (MoveGroup("", tuple(moves)),)
    groups: dict[str, list[str]] = {}
    for move in moves:
        named = spaces_in(move, by_key)
        words = move.split()
        label = named[0] if named else (words[1] if len(words) > 1 else "")
        groups.setdefault(label, []).append(move)
    return tuple(MoveGroup(label, tuple(texts)) for label, texts in groups.items())


def as_choice(moves: list[str]) -> Choice | None:
    """The set to pick from when the moves are every pick of one size from it
    and there are more moves than things to pick; otherwise None."""
    if not moves:
        return None
    split = [move.split() for move in moves]
    head, size = split[0][0], len(split[0]) - 1
    if size < 2 or any(words[0] != head or len(words) != size + 1 for words in split):
        return None
    most: Counter[str] = Counter()
    for words in split:
        most |= Counter(words[1:])
    items = tuple(item for item, count in most.items() for _ in range(count))
    if len(moves) <= len(items) or len(set(moves)) != _picks(most.values(), size):
        return None
    return Choice(head, size, items)


def _picks(counts: Iterable[int], size: int) -> int:
    """How many different multisets of `size` things there are when each thing
    is there `counts` times."""
    ways = [1] + [0] * size
    for count in counts:
        ways = [sum(ways[n - k] for k in range(min(count, n) + 1)) for n in range(size + 1)]
    return ways[size]
