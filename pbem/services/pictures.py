"""A stored game's board as one seat sees it, in the game's own seat colours:
the one picture pages and mails show, so a seat looks the same everywhere."""

from __future__ import annotations

from typing import Any

from pbem.models import Game
from pbem.render import render_png


def board_png(game: Game, view: dict[str, Any]) -> bytes:
    return render_png(view, [seat.colour for seat in game.seats])
