"""A tiny ruleset that exercises the core: simultaneous secret picks, a
seeded draw, redacted history. Only the tests register it."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalMove
from engine.core.options import Option
from engine.core.registry import register
from engine.core.rng import SeededRandom
from engine.core.state import Result, State
from engine.core.textboard import TextBoard


@register
class PickState(State):
    """Every round each seat secretly picks 1-3; the highest unique pick scores
    the round's drawn bonus; first to `target` points wins."""

    name = "toy-pick"
    version = 1
    title = "Toy Pick"
    min_players = 2
    max_players = 3
    option_spec = (Option("target", 5, "points to win", choices=(3, 5, 7)),)

    def __init__(self, players: int, seed: str, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.rng = SeededRandom(seed, "bonus")
        self.bonus = self.rng.randbelow(3) + 1
        self.picks: dict[int, int] = {}
        self.points = [0] * players

    def to_act(self) -> frozenset[int]:
        if self.result():
            return frozenset()
        return frozenset(s for s in range(self.players) if s not in self.picks)

    def legal_moves(self, seat: int) -> list[int]:
        return [1, 2, 3] if seat in self.to_act() else []

    def parse_syntax(self, seat: int, text: str) -> int:
        word, _, number = text.strip().partition(" ")
        if word != "pick" or not number.isdigit():
            raise IllegalMove(f"write 'pick N', not {text!r}")
        return int(number)

    def check(self, seat: int, move: int) -> None:
        if move not in (1, 2, 3):
            raise IllegalMove(f"you may pick 1, 2 or 3, not {move}", rule="picks")

    def apply(self, seat: int, move: int) -> None:
        self.picks[seat] = move
        if len(self.picks) == self.players:
            values = list(self.picks.values())
            unique = [v for v in values if values.count(v) == 1]
            if unique:
                best = max(unique)
                winner = next(s for s, v in self.picks.items() if v == best)
                self.points[winner] += self.bonus
            self.picks = {}
            self.bonus = self.rng.randbelow(3) + 1

    def format_move(self, move: int) -> str:
        return f"pick {move}"

    def history_text(self, text: str, mover: int, viewer: int | None) -> str:
        return text if viewer == mover else "pick (secret)"

    def result(self) -> Result | None:
        if max(self.points) < self.options["target"]:
            return None
        best = max(self.points)
        winners = tuple(s for s in range(self.players) if self.points[s] == best)
        others = tuple(s for s in range(self.players) if s not in winners)
        ranking = (winners, others) if others else (winners,)
        return Result(ranking, tuple({"points": p} for p in self.points), "target reached")

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        return {
            "points": self.points,
            "bonus": self.bonus,
            "picked": sorted(self.picks),
            "my_pick": self.picks.get(seat) if seat is not None else None,
        }

    def text_board(self, seat: int | None) -> TextBoard:
        return TextBoard(f"points {self.points}, bonus {self.bonus}")
