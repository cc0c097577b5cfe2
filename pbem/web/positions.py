"""A game as one viewer sees it at one point of its history: replay the
stored log up to a ply, and pick out what only this seat may see."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext, pgettext

import engine
from pbem.i18n import game_word
from pbem.models import Game
from pbem.numbers import whole_number
from pbem.services.errors import NotFound
from pbem.services.replay import engine_game, moves_stored


@dataclass(frozen=True)
class Position:
    played: engine.Game
    ply: int  # moves replayed
    last_ply: int  # moves in the whole log

    @property
    def is_now(self) -> bool:
        return self.ply == self.last_ply


def position_at(game: Game, ply: int | None) -> Position:
    """The game after its first `ply` moves (all of them when None)."""
    last = moves_stored(game)
    ply = _within(ply, last)
    return Position(engine_game(game, ply), ply, last)


def shown_ply(game: Game, ply: int | None) -> int:
    """The ply `position_at` would show, counted without loading the log."""
    return _within(ply, moves_stored(game))


def _within(ply: int | None, last: int) -> int:
    ply = last if ply is None else ply
    if not 0 <= ply <= last:
        raise NotFound(_("no such move in this game"))
    return ply


def ply_argument(raw: str | None) -> int | None:
    """The ?ply= of a URL; anything but a whole number is 'not found'."""
    if raw in (None, ""):
        return None
    ply = whole_number(raw)
    if ply is None:
        raise NotFound(_("no such move in this game"))
    return ply


def private_information(played: engine.Game, seat: int) -> list[tuple[str, str]]:
    """(label, value) for each part of the seat's view a spectator does not see."""
    found: list[tuple[str, str]] = []
    _differences(played.view(seat)["state"], played.view(None)["state"], [], found, seat)
    return found


SEAT_LISTS = ("seats", "players")


def _differences(
    mine: Any, public: Any, path: list[str], found: list[tuple[str, str]], seat: int
) -> None:
    if mine == public:
        return
    if isinstance(mine, dict) and isinstance(public, dict):
        for key, value in mine.items():
            _differences(value, public.get(key), [*path, str(key)], found, seat)
    elif isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        for index, (a, b) in enumerate(zip(mine, public, strict=True)):
            _differences(a, b, _item_path(path, index, seat), found, seat)
    else:
        found.append((" › ".join(_name(p) for p in path), _text(mine)))


def _item_path(path: list[str], index: int, seat: int) -> list[str]:
    """Your own entry of a per-seat list needs no label: "hand", not "seats › 0 › hand"."""
    if path[-1:] and path[-1] in SEAT_LISTS:
        return path[:-1] if index == seat else [*path, _("seat %(number)s", number=index + 1)]
    return [*path, str(index + 1)]


# The names of the views' private parts, as the reader says them; the games'
# own words (a terrain, a figure) come from the rules catalogues.
PART_NAMES = {
    "tile in hand": lazy_gettext("tile in hand"),
    "hand": lazy_gettext("hand"),
    "captured": lazy_gettext("captured"),
    "pile tiles": lazy_gettext("pile tiles"),
    "choice": lazy_gettext("choice"),
    "last resolution": lazy_gettext("last resolution"),
    "taken by": lazy_gettext("taken by"),
    "left": lazy_gettext("left"),
    "right": lazy_gettext("right"),
}


def _name(key: str) -> str:
    spaced = key.replace("_", " ")
    known = PART_NAMES.get(spaced)
    return str(known) if known is not None else game_word(spaced)


def _text(value: Any) -> str:
    if isinstance(value, list):  # tiles or cards: the French and Czech "none" agree
        return ", ".join(_text(v) for v in value) or pgettext("no tiles or cards", "none")
    if isinstance(value, dict):
        return ", ".join(f"{_name(k)}: {_text(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return game_word(str(value))
