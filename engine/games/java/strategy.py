"""What Java's bots know: a position's outlook per seat and the moves worth weighing."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from engine.bots.base import Bot
from engine.bots.strategy import Strategy, outcome_values, register_strategy
from engine.games.java.choices import choices
from engine.games.java.outlook import projected_points, squashed_margins
from engine.games.java.planner import TurnPlanBot
from engine.games.java.state import JavaState


def position_key(state: JavaState, seat: int) -> Hashable:
    """All that decides the seat's choices: a plan meets a position again
    (its first actions, turns reached in another order), and choosing is the
    costly part."""
    land = state.land
    return (
        seat,
        state.turn_number,
        state.ap_left,
        state.tile_placed,
        state.cards_drawn,
        state.token_used,
        state.triples,
        state.irrigation_left,
        tuple(state.own_tiles[seat].values()),
        state.off_board[seat],
        state.tokens[seat],
        seat in state.reserves_kept,
        tuple(state.palace_supply.values()),
        tuple(sorted(land.level.items())),
        tuple(sorted(land.face.items())),
        tuple(sorted(land.developers.items())),
        tuple(
            sorted(
                (c, tuple(p.values), p.festival, p.changed_turn) for c, p in land.palaces.items()
            )
        ),
        tuple(sorted(land.irrigation)),
        tuple(state.hands[seat]),
        state.faceup,
        bool(state.deck or state.discards),
        repr(state.auction),
    )


@register_strategy
class JavaStrategy(Strategy[JavaState]):
    """`easy` is the generic one-action look-ahead; `medium` and `strong`
    plan whole turns (`engine.games.java.planner`), judged by the outlook."""

    ruleset = "java"
    # Beam widths of the turn planner, and for `strong` how many of its best
    # turns meet the other seats' answers.
    budgets: ClassVar[dict[str, int]] = {"medium": 2, "strong": 4, "strong_replies": 3}

    def __init__(self) -> None:
        self._choices: dict[Hashable, list[Any]] = {}

    def values(self, state: JavaState) -> list[float]:
        result = state.result()
        if result is not None:
            return outcome_values(result, state.players)
        return squashed_margins(projected_points(state))

    def candidates(self, state: JavaState, seat: int) -> Sequence[Any]:
        key = position_key(state, seat)
        found = self._choices.get(key)
        if found is None:
            found = self._choices[key] = choices(state, seat)
        return found

    def bot(self, level: str, key: str) -> Bot | None:
        if level == "medium":
            return TurnPlanBot(key, self, self.budgets["medium"])
        if level == "strong":
            return TurnPlanBot(
                key, self, self.budgets["strong"], replies=self.budgets["strong_replies"]
            )
        return None
