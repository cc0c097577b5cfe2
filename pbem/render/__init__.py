"""PNG pictures of a game's board as one seat sees it, in its reader's language.

Input is only the engine's view of a seat (`Game.view(seat)`), so a picture
can never show what that seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.render import java, samurai, taluva
from pbem.render.colours import seat_colours
from pbem.render.hexdraw import Colour, Picture, Point
from pbem.render.palette import palette_png
from pbem.render.words import Words

Renderer = Callable[[Mapping[str, Any], Sequence[Colour], Words], Picture]
Centres = Callable[[Mapping[str, Any]], dict[str, Point]]

RENDERERS: dict[str, tuple[Renderer, Centres]] = {
    "taluva": (taluva.render, taluva.centres),
    "samurai": (samurai.render, samurai.centres),
    "java": (java.render, java.centres),
}


def _game(view: Mapping[str, Any]) -> tuple[Renderer, Centres]:
    try:
        return RENDERERS[view["ruleset"]]
    except KeyError:
        raise ValueError(f"no picture for the game {view.get('ruleset')!r}") from None


def render_picture(
    view: Mapping[str, Any], colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> Picture:
    """The picture with its drawn texts and space centres (what tests look at)."""
    render, _ = _game(view)
    return render(view, seat_colours(len(view["seats"]), colours), Words(language))


def render_png(
    view: Mapping[str, Any], colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> bytes:
    """PNG bytes of a seat's view; `colours` (names or #rrggbb) per seat, else the
    defaults; its words in `language` (en, fr or cs)."""
    seats = seat_colours(len(view["seats"]), colours)
    return palette_png(render_picture(view, seats, language).image, seats)


def space_centres(view: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Pixel centre of every space the picture of `view` draws, by notation name."""
    _, centres = _game(view)
    return centres(view)
