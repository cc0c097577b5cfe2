"""Taluva's `medium` and `strong` levels: whole turns, each answered by the
next seat's best turn.

A Taluva turn is a tile and a build that only make sense together, and a
tree search at a few hundred iterations spreads them thinly: a placement is
valued by the average of all its builds, bad ones included, and the replies
are hardly visited. This bot weighs every turn of the candidates (placement
then build) at once, keeps the best few, and answers each with the next
seat's best turn over a few deals of the tile it will draw: a two-turn
look-ahead, the same deals for every turn so they are compared fairly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.bots.base import Bot, some_moves
from engine.bots.hidden import seat_sample
from engine.bots.search import acting_seat
from engine.bots.strategy import Strategy
from engine.core.rng import SeededRandom
from engine.core.state import State

Turn = tuple[Any, State[Any]]  # the turn's first move, the position after it


def whole_turns(
    strategy: Strategy[Any], state: State[Any], seat: int, followed: int | None = None
) -> list[Turn]:
    """The ways among the candidates to finish `seat`'s turn, in their order;
    with `followed`, only that many first moves, best by the values after
    them, are followed by each of their builds (the others are dropped)."""
    firsts: list[Turn] = []
    for move in strategy.candidates(state, seat):
        after = state.copy()
        after.apply(seat, move)
        firsts.append((move, after))
    if followed is not None:
        firsts.sort(key=lambda turn: -strategy.values(turn[1])[seat])
        del firsts[followed:]
    turns: list[Turn] = []
    for move, after in firsts:
        if not after.turn_goes_on(seat):
            turns.append((move, after))
            continue
        for build in strategy.candidates(after, seat):
            built = after.copy()
            built.apply(seat, build)
            turns.append((move, built))
    return turns


@dataclass(frozen=True)
class TurnSearch:
    """A turn search's budget, counted in turns, tiles and placements."""

    kept: int  # own whole turns answered
    deals: int  # tiles dealt to the next seat for its answer
    followed: int  # the next seat's placements followed to their builds


class TurnSearchBot(Bot):
    """Keeps the `kept` best turns by the strategy's values, then plays the
    one that leaves its seat best off, on average over `deals` tiles dealt to
    the next seat, after that seat's best turn (among the builds of its
    `followed` best placements)."""

    def __init__(self, key: str, strategy: Strategy[Any], search: TurnSearch) -> None:
        super().__init__(key)
        self.key = key
        self.strategy = strategy
        self.kept = search.kept
        self.deals = search.deals
        self.followed = search.followed

    def choose(self, state: State[Any], seat: int) -> Any:
        sample = seat_sample(state, seat, self.rng)
        turns = some_moves(whole_turns(self.strategy, sample, seat), seat)
        values = self.strategy.values
        ranked = sorted(turns, key=lambda turn: -values(turn[1])[seat])[: self.kept]
        if len({move for move, _ in ranked}) == 1:
            return ranked[0][0]
        best = max(ranked, key=lambda turn: self._answered(turn[1], seat))
        return best[0]

    def _answered(self, after: State[Any], seat: int) -> float:
        """`seat`'s mean value after the next seat's best turn, over the deals."""
        total = 0.0
        for deal in range(self.deals):
            dealt = seat_sample(after, seat, SeededRandom(self.key, f"deal {deal}"))
            total += self._after_reply(dealt, seat)
        return total / self.deals

    def _after_reply(self, state: State[Any], seat: int) -> float:
        values = self.strategy.values
        if state.is_over():
            return values(state)[seat]
        other = acting_seat(state)
        replies = whole_turns(self.strategy, state, other, self.followed)
        reply = max(replies, key=lambda turn: values(turn[1])[other])
        return values(reply[1])[seat]
