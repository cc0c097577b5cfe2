"""The festival auction: a sequence of single decisions by the seats concerned.

The organiser opens with cards; then, clockwise among the eligible seats,
each one below the highest total plays cards to reach it or passes (drops
out), and each one level with the highest total (everyone still in is then
level) agrees or raises. Playing cards to exactly reach the highest total
proposes sharing, so it counts as agreeing. The auction ends when one seat is
left (solo) or every seat still in has agreed (shared). A seat with no
possible play is moved on automatically: below the total it drops out, level
with it it agrees. How an auction ended is kept (FestivalHeld), for the
players who were not asked again to hear it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.core.messages import Message
from engine.games.java import cards
from engine.games.java import messages as m  # noqa: F401  (the templates used here)

# Festival points by palace value: (solo, each when shared).
POINTS = {2: (1, 0), 4: (2, 1), 6: (3, 2), 8: (4, 2), 10: (5, 3)}


def festival_points(palace_value: int, shared: bool) -> int:
    solo, each = POINTS[palace_value]
    return each if shared else solo


@dataclass(frozen=True)
class FestivalHeld:
    """How an auction ended: who held the festival, the points each scored,
    and the seats dropped because they could not match the highest total."""

    palace: str
    winners: tuple[int, ...]
    points: int
    unable: tuple[int, ...]

    def told(self, seats: Sequence[str]) -> Message:
        """The outcome, naming the seats."""
        names = [seats[s] for s in self.winners]
        if len(names) == 1:
            said = Message(
                "java.festival_alone",
                {"space": self.palace, "winner": names[0], "points": self.points},
            )
        else:
            said = Message(
                "java.festival_shared",
                {"space": self.palace, "winners": ", ".join(names), "points": self.points},
            )
        if not self.unable:
            return said
        unable = ", ".join(seats[s] for s in self.unable)
        return Message("java.festival_unable", {"outcome": said, "seats": unable})


@dataclass
class Auction:
    palace: str
    organiser: int
    order: list[int]
    totals: dict[int, int]
    active: list[int]
    current: int
    agreed: set[int] = field(default_factory=set)
    played: list[str] = field(default_factory=list)
    winners: list[int] | None = None
    unable: list[int] = field(default_factory=list)  # dropped out automatically

    @property
    def highest(self) -> int:
        return max(self.totals[s] for s in self.active)

    def needed(self, seat: int) -> int:
        """Worth a seat must add: to reach the highest, or 1 to raise when level."""
        return max(self.highest - self.totals[seat], 1)

    def is_level(self, seat: int) -> bool:
        return self.totals[seat] == self.highest

    def play(self, seat: int, played: Iterable[str], faceup: str) -> None:
        played = list(played)
        before = self.highest
        self.totals[seat] += cards.total(played, faceup)
        self.played.extend(played)
        if self.totals[seat] > before:
            self.agreed = set()
        else:
            self.agreed.add(seat)

    def agree(self, seat: int) -> None:
        self.agreed.add(seat)

    def drop(self, seat: int) -> None:
        self.active.remove(seat)
        self.agreed.discard(seat)

    def finished(self) -> bool:
        if len(self.active) == 1 or set(self.active) <= self.agreed:
            self.winners = sorted(self.active)
            return True
        return False

    def advance(self, can_play: Callable[[int, int], bool]) -> None:
        """Hand the decision to the next seat still in, settling automatic ones.

        `can_play(seat, worth)` says whether the seat holds matching cards
        worth at least `worth`.
        """
        while not self.finished():
            seat = self._next_after(self.current)
            self.current = seat
            if can_play(seat, self.needed(seat)):
                return
            if self.is_level(seat):
                self.agree(seat)
            else:
                self.drop(seat)
                self.unable.append(seat)

    def _next_after(self, seat: int) -> int:
        start = self.order.index(seat)
        for step in range(1, len(self.order) + 1):
            candidate = self.order[(start + step) % len(self.order)]
            if candidate in self.active:
                return candidate
        raise AssertionError("an auction always has a seat still in")
