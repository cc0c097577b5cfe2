"""What a mail says about a game, as one seat may see it: the news since the
seat last moved, its private picture, its legal moves, the result."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

import engine
from pbem.i18n import current_language, game_word
from pbem.i18n.boards import board_text
from pbem.models import GameEvent
from pbem.render.lastturn import moves_since
from pbem.services.events import event_text

SHORT_LIST_PER_KIND = 4
SHORT_LIST_MAX = 30


@dataclass
class SeatPicture:
    """Everything a mail to one seat needs, taken from one replay."""

    ruleset: str
    seats: list[str]
    position: int
    ply: int
    to_act: list[int]
    news: list[str]
    picture: str
    view: dict[str, Any]
    legal_total: int = 0
    legal_sample: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    say: Callable[[str], str] = str  # a move's text in the reader's words

    @property
    def my_turn(self) -> bool:
        return self.position in self.to_act and self.result is None

    def waiting_for(self) -> str:
        return ", ".join(self.seats[s] for s in self.to_act)


def seat_picture(played: engine.Game, position: int, language: str) -> SeatPicture:
    view = played.view(position)
    state = played.state
    result = played.result()

    def say(text: str) -> str:
        return state.said_move(text, language)

    picture = SeatPicture(
        ruleset=state.name,
        seats=list(played.seats),
        position=position,
        ply=len(played.log),
        to_act=sorted(state.to_act()),
        news=news_since_last_turn(view["history"], played.seats, position, say),
        picture=board_text(state, position, language),
        view=view,
        result=result.to_json() if result else None,
        say=say,
    )
    if picture.my_turn:
        legal = [state.format_move(m) for m in state.legal_moves(position)]
        picture.legal_total = len(legal)
        picture.legal_sample = [say(text) for text in short_list(legal)]
    return picture


def news_since_last_turn(
    history: list[dict[str, Any]], seats: tuple[str, ...], me: int, say: Callable[[str], str]
) -> list[str]:
    """The moves after the seat's own last move, as it may see them, each
    `say` puts in the reader's words."""
    return [
        f"{ply}. {seats[entry['seat']]}: {say(entry['move'])}"
        for ply, entry in moves_since(history, me)
    ]


def short_list(legal: list[str]) -> list[str]:
    """A few moves of every kind (by first word), in the engine's order, so a
    player sees every kind of move open to them without a list of thousands."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for text in legal:
        kind = text.split(" ", 1)[0]
        if len(by_kind[kind]) < SHORT_LIST_PER_KIND:
            by_kind[kind].append(text)
    sample = [text for texts in by_kind.values() for text in texts]
    return sample[:SHORT_LIST_MAX]


def result_text(result: dict[str, Any], seats: list[str]) -> str:
    winners = ", ".join(seats[s] for s in result["winners"]) or _("nobody")
    return _(
        "Game over (%(reason)s). Won by %(winners)s.",
        reason=game_word(result["reason"]),
        winners=winners,
    )


def seed_text(view: dict[str, Any]) -> str:
    """The revealed seed and how to check that the draws came from it
    (docs/randomness.md); only a finished game's view carries the seed."""
    return "\n".join(
        [
            _("Seed: %(seed)s", seed=view["seed"]),
            _(
                "Check the draws: its SHA-256 is %(commitment)s, the value shown from the "
                "first move on, and replaying the game record (linked below) with python -m "
                "engine replay redraws every tile and card from this seed.",
                commitment=view["seed_commitment"],
            ),
        ]
    )


def history_lines(
    played: engine.Game, position: int, events: Mapping[int, Sequence[GameEvent]] = {}
) -> list[str]:
    """Every move as the seat may see it, each followed by the events (timeouts,
    organiser actions) that came after it."""
    view, language = played.view(position), current_language()
    moves = news_since_last_turn(
        view["history"], played.seats, -1, lambda text: played.state.said_move(text, language)
    )
    lines = [f"   ({event_text(event)})" for event in events.get(0, ())]
    for ply, move in enumerate(moves, start=1):
        lines.append(move)
        lines += [f"   ({event_text(event)})" for event in events.get(ply, ())]
    return lines
