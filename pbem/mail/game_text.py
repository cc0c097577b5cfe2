"""What a mail says about a game, as one seat may see it: the news since the
seat last moved, its private picture, its legal moves, the result. Each move
is followed by what the rules did by themselves after it (a festival
auction's outcome: the events of kind RULES), wherever moves are listed."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

import engine
from engine.bots.strategy import strategy_for
from pbem.i18n import current_language, game_word
from pbem.i18n.boards import board_text
from pbem.i18n.moves import said_move
from pbem.models import GameEvent
from pbem.render.lastturn import moves_since, names_by_key, spaces_in
from pbem.services.events import event_text
from pbem.services.pictures import board_centres

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
    told: Mapping[int, Sequence[GameEvent]] = field(default_factory=dict)  # RULES, by ply

    @property
    def my_turn(self) -> bool:
        return self.position in self.to_act and self.result is None

    def waiting_for(self) -> str:
        return ", ".join(self.seats[s] for s in self.to_act)

    def with_told(self, moves: Iterable[tuple[int, str]]) -> list[str]:
        """Lines of moves by ply, each followed by what the rules did after it."""
        return with_events(moves, self.told)

    def told_of_last_turn(self) -> list[str]:
        """What the rules did after the reader's latest run of moves (the
        pass that ended an auction), for the answer to those moves."""
        plies = self._last_run()
        return [line for ply in plies for line in event_lines(self.told, ply)]

    def _last_run(self) -> range:
        """The plies of the reader's latest run of moves (empty: none yet)."""
        history = self.view["history"]
        end = len(history)
        while end and history[end - 1]["seat"] != self.position:
            end -= 1
        start = end
        while start and history[start - 1]["seat"] == self.position:
            start -= 1
        return range(start + 1, end + 1)

    def what_to_send(self) -> str:
        """After a turn was refused, what the reader should send now: the
        whole turn, only its rest when moves of it were played before (a Java
        turn sent action by action: sending them again would fail), or
        nothing while the game waits for others (an auction answered out of
        turn) or is over."""
        if self.result is not None:
            return _("Nothing of it was applied. The game is over: there is nothing to send.")
        if not self.my_turn:
            return _(
                "Nothing of it was applied. There is nothing to send now: the game waits for "
                "%(players)s, and you will get a mail when it is your turn.",
                players=self.waiting_for(),
            )
        run, history = self._last_run(), self.view["history"]
        if run and run.stop == len(history) + 1:  # the reader's own moves end the history
            played = [self.say(history[ply - 1]["move"]) for ply in run]
            return _(
                "Nothing of it was applied, but the moves you played before it in this turn "
                "stand (%(moves)s): send only the rest of your turn.",
                moves=", ".join(played),
            )
        return _("Nothing of it was applied. Please send the whole turn again.")


def seat_picture(
    played: engine.Game,
    position: int,
    language: str,
    told: Mapping[int, Sequence[GameEvent]] = {},
    names: Sequence[str] | None = None,
) -> SeatPicture:
    """`told`: the events of kind RULES by ply, shown after their moves;
    `names`: the seats as the reader sees them (pbem.services.names), else
    as the record has them."""
    seats = list(names or played.seats)
    view = played.view(position)
    state = played.state
    result = played.result()

    def say(text: str) -> str:
        return said_move(state, text, language)

    picture = SeatPicture(
        ruleset=state.name,
        seats=seats,
        position=position,
        ply=len(played.log),
        to_act=sorted(state.to_act()),
        news=news_since_last_turn(view["history"], seats, position, say, told),
        picture=board_text(state, position, language),
        view=view,
        result=result.to_json() if result else None,
        say=say,
        told=told,
    )
    if picture.my_turn:
        legal = likely_first(state, position, board_centres(view))
        picture.legal_total = len(legal)
        picture.legal_sample = [say(text) for text in short_list(legal)]
    return picture


def likely_first(
    state: engine.State[Any], seat: int, centres: Mapping[str, tuple[float, float]]
) -> list[str]:
    """The seat's legal moves (texts), those a player would consider first:
    the ruleset's bots' candidates (engine.bots: in Java, tiles near the
    seat's developers and villages, its best developer moves, palaces and
    festivals, ending the turn), then the others by how near the board
    (`centres`: each space's place) puts them to the candidates' spaces, in
    the engine's order where equally near. Deterministic, so the same
    position always shows the same moves."""
    legal = [state.format_move(m) for m in state.legal_moves(seat)]
    known = set(legal)
    candidates = (state.format_move(m) for m in strategy_for(state.name).candidates(state, seat))
    likely = list(dict.fromkeys(text for text in candidates if text in known))
    by_key = names_by_key(centres)
    near = [centres[space] for text in likely for space in spaces_in(text, by_key)]
    distance = {
        name: min((math.dist(centre, other) for other in near), default=math.inf)
        for name, centre in centres.items()
    }

    def farness(text: str) -> float:
        return min((distance[space] for space in spaces_in(text, by_key)), default=math.inf)

    chosen = set(likely)
    return [*likely, *sorted((text for text in legal if text not in chosen), key=farness)]


def news_since_last_turn(
    history: list[dict[str, Any]],
    seats: Sequence[str],
    me: int,
    say: Callable[[str], str],
    events: Mapping[int, Sequence[GameEvent]] = {},
) -> list[str]:
    """The moves after the seat's own last move, as it may see them, each
    `say` puts in the reader's words and followed by its `events`."""
    return with_events(
        (
            (ply, f"{ply}. {seats[entry['seat']]}: {say(entry['move'])}")
            for ply, entry in moves_since(history, me)
        ),
        events,
    )


def with_events(
    moves: Iterable[tuple[int, str]], events: Mapping[int, Sequence[GameEvent]]
) -> list[str]:
    """Lines of moves by ply, each followed by the events that came after it."""
    lines: list[str] = []
    for ply, line in moves:
        lines += [line, *event_lines(events, ply)]
    return lines


def event_lines(events: Mapping[int, Sequence[GameEvent]], ply: int) -> list[str]:
    """The events after move `ply` (0: before the first), each on a line of its own."""
    return [f"   ({event_text(event)})" for event in events.get(ply, ())]


def short_list(ranked: list[str]) -> list[str]:
    """A few moves of every kind (by first word), the likeliest of each
    (`ranked` puts them first), so a player sees every kind of move open to
    them without a list of thousands: kinds take turns, one move each, until
    each has SHORT_LIST_PER_KIND or the list SHORT_LIST_MAX. Listed by kind,
    in the order of `ranked`."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for text in ranked:
        by_kind[kind_of(text)].append(text)
    taken: dict[str, int] = dict.fromkeys(by_kind, 0)
    total = 0
    for _round in range(SHORT_LIST_PER_KIND):
        for kind, texts in by_kind.items():
            if total < SHORT_LIST_MAX and taken[kind] < len(texts):
                taken[kind] += 1
                total += 1
    return [text for kind, texts in by_kind.items() for text in texts[: taken[kind]]]


def kind_of(move: str) -> str:
    """A move's kind: its first word (triple, move, end)."""
    return move.split(" ", 1)[0]


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
    played: engine.Game,
    position: int,
    names: Sequence[str],
    events: Mapping[int, Sequence[GameEvent]] = {},
) -> list[str]:
    """Every move as the seat may see it, by the seats' `names` as the reader
    sees them, each followed by the events (timeouts, organiser actions) that
    came after it."""
    view, language = played.view(position), current_language()
    return event_lines(events, 0) + news_since_last_turn(
        view["history"],
        names,
        -1,
        lambda text: said_move(played.state, text, language),
        events,
    )
