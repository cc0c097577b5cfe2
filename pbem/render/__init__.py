"""Pictures of a game's board as one seat sees it, in its reader's language: a
PNG with its side panel (the full-size link), the same cut in two (mails), or
an SVG board with the panel as HTML (pages).

Input is only the engine's view of a seat (`Game.view(seat)`), so a picture
can never show what that seat may not see."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from pbem.render import java, samurai, taluva
from pbem.render.colours import BACKGROUND, seat_colours
from pbem.render.hexdraw import HexLayout, Picture
from pbem.render.palette import cut_board_and_panel, palette_png, quantised
from pbem.render.panel import WIDTH, HtmlPanel, PanelWriter, PngPanel, compose
from pbem.render.surface import Colour, Point, Surface
from pbem.render.svgdraw import SvgCanvas
from pbem.render.words import Words

View = Mapping[str, Any]


@dataclass(frozen=True)
class GameDrawing:
    """How one game is drawn: where its board goes, the board, the side panel."""

    layout: Callable[[View], HexLayout]
    board: Callable[[Surface, HexLayout, View, Sequence[Colour], Words], dict[str, Point]]
    panel: Callable[[View, Sequence[Colour], Words, PanelWriter], None]
    centres: Callable[[View], dict[str, Point]]
    # Where the board is played by clicking (the SVG): room for the spaces
    # a move may reach that the board does not draw, and those spaces.
    play_layout: Callable[[View], HexLayout]
    open_ground: Callable[[Surface, HexLayout, View, Words], None] | None = None


DRAWINGS: dict[str, GameDrawing] = {
    "taluva": GameDrawing(
        taluva.layout,
        taluva.draw_board,
        taluva.write_panel,
        taluva.centres,
        taluva.play_layout,
        taluva.draw_open_ground,
    ),
    **{
        game.__name__.rsplit(".", 1)[-1]: GameDrawing(
            game.layout, game.draw_board, game.write_panel, game.centres, game.layout
        )
        for game in (samurai, java)
    },
}


def can_draw(view: View) -> bool:
    """Whether the game of `view` has a picture (a test's toy game has none)."""
    return view.get("ruleset") in DRAWINGS


def _game(view: View) -> GameDrawing:
    try:
        return DRAWINGS[view["ruleset"]]
    except KeyError:
        raise ValueError(f"no picture for the game {view.get('ruleset')!r}") from None


def render_picture(
    view: View, colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> Picture:
    """The picture with its drawn texts and space centres (what tests look at)."""
    game = _game(view)
    seats = seat_colours(len(view["seats"]), colours)
    words = Words(language)
    layout = game.layout(view)
    panel = PngPanel(layout.height)
    game.panel(view, seats, words, panel)
    return compose(layout, panel, lambda canvas: game.board(canvas, layout, view, seats, words))


def render_png(
    view: View, colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> bytes:
    """PNG bytes of a seat's view; `colours` (names or #rrggbb) per seat, else the
    defaults; its words in `language` (en, fr or cs)."""
    seats = seat_colours(len(view["seats"]), colours)
    return palette_png(render_picture(view, seats, language).image, seats)


def render_board_and_panel(
    view: View, colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> tuple[bytes, bytes]:
    """The picture of `render_png` as two PNGs, its board and its side panel,
    cut before the whole is encoded: what a mail shows."""
    seats = seat_colours(len(view["seats"]), colours)
    return cut_board_and_panel(quantised(render_picture(view, seats, language).image, seats), WIDTH)


def render_svg(
    view: View, colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> Markup:
    """The board alone as an inline <svg>, each space a group with its data-space
    and its name in `language`."""
    game = _game(view)
    seats = seat_colours(len(view["seats"]), colours)
    words = Words(language)
    layout = game.play_layout(view)
    canvas = SvgCanvas(layout.width, layout.height, BACKGROUND)
    if game.open_ground is not None:
        game.open_ground(canvas, layout, view, words)
    game.board(canvas, layout, view, seats, words)
    return canvas.markup(words.gettext("The board"), "board-svg")


def render_panel_html(
    view: View, colours: Sequence[str | Colour] | None = None, language: str = "en"
) -> Markup:
    """The side panel of the PNG as HTML text in `language`, its tiles and cards
    as small SVGs."""
    panel = HtmlPanel()
    seats = seat_colours(len(view["seats"]), colours)
    _game(view).panel(view, seats, Words(language), panel)
    return panel.markup()


def space_centres(view: View) -> dict[str, tuple[float, float]]:
    """Pixel centre of every space the picture of `view` draws, by notation name."""
    return _game(view).centres(view)
