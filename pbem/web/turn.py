"""What a seat may do next while it builds a turn: the legal moves after the
lines written so far, what each spends of the turn's action points and how
many are left. The game and preview pages draw it; the turn builder
(static/play.js) asks again after each line it adds, so a turn of several
moves is built by clicks alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

import engine
from pbem.i18n import current_language


@dataclass(frozen=True)
class NextMoves:
    moves: list[str]
    points: int | None = None  # action points left, in rulesets that count them
    costs: dict[str, int] = field(default_factory=dict)  # per move text, when counted
    say: Callable[[str], str] = str  # a move's text in the page's words

    def cost_label(self, move: str) -> str:
        """What the move spends, in the reader's words ("" without points)."""
        cost = self.costs.get(move)
        return "" if cost is None else _cost_words(cost)

    def as_json(self) -> dict[str, object]:
        """For the turn builder (play.js): the moves as the engine writes
        them (the board's picks are matched against them), their costs in
        the same order (a long list, so not keyed by move again), each cost's
        label, and each of their words the page says otherwise: a move is
        said word by word (engine.core.vocabulary.said_in), so the words
        alone say every move, without a second list of thousands."""
        words = {word for move in self.moves for word in move.split(" ")}
        return {
            "moves": self.moves,
            "costs": [self.costs.get(move) for move in self.moves] if self.costs else [],
            "labels": {cost: _cost_words(cost) for cost in set(self.costs.values())},
            "said": {word: said for word in sorted(words) if (said := self.say(word)) != word},
        }

    def points_text(self) -> str:
        if self.points is None:
            return ""
        return ngettext("%(num)d action point left", "%(num)d action points left", self.points)


def _cost_words(cost: int) -> str:
    """In brackets, so that a move's button never reads as one word with its
    cost ("village=G4 (1 AP)", not "village=G41 AP")."""
    return f"({_spent(cost)})"


def _spent(cost: int) -> str:
    if cost < 0:
        return _("+%(num)d AP", num=-cost)
    if cost == 0:
        return _("free")
    return ngettext("%(num)d AP", "%(num)d AP", cost)


NOTHING = NextMoves([])


def next_moves(state: engine.State[Any], seat: int) -> NextMoves:
    """The seat's legal moves in `state`, with their costs where counted,
    said in the page's words as the mails say them."""
    legal = state.legal_moves(seat)
    texts = [state.format_move(move) for move in legal]
    language = current_language()

    def say(text: str) -> str:
        return state.said_move(text, language)

    points = state.action_points(seat)
    if points is None:
        return NextMoves(texts, say=say)
    costs = {
        text: cost
        for text, move in zip(texts, legal, strict=True)
        if (cost := state.action_cost(move)) is not None
    }
    return NextMoves(texts, points, costs, say)
