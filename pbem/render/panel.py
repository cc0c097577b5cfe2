"""The side panel every game shares (seats, whose turn, result, last turn) and
the step that puts board and panel side by side.

A panel is written once and read in two ways: drawn beside the board in the
PNG (PngPanel), or as HTML text beside the SVG board on a page (HtmlPanel)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from markupsafe import Markup, escape

from pbem.render.colours import BACKGROUND, EDGE, INK, MUTED, PANEL, css_colour
from pbem.render.hexdraw import Canvas, HexLayout, Picture
from pbem.render.lastturn import outlined_turns
from pbem.render.surface import Colour, Surface
from pbem.render.svgdraw import SvgCanvas
from pbem.render.words import Words

WIDTH = 420
PAD = 18
# The panel's canvas starts as tall as the board beside it (at least
# FIRST_HEIGHT) and HEADROOM more, and doubles whenever the writing comes
# within HEADROOM of its foot: the picture is as tall as its board anyway,
# and a supersampled canvas of the tallest panel ever drawn cost more to
# allocate than most panels cost to draw. Most panels never grow.
FIRST_HEIGHT = 800
HEADROOM = 400
TEXT = 15
SMALL = 13
# A long turn (Java's many actions) lists only its latest moves.
MOVES_SHOWN = 12


def score_text(score: Mapping[str, Any], words: Words) -> str:
    """`{"hut": 14, "shogun": ["rice"], "eliminated": False}` -> `hut 14, shogun rice`."""
    parts = []
    for key, value in score.items():
        name = words.word(key.replace("_", " "))
        if value is True:
            parts.append(name)
        elif isinstance(value, list | tuple):
            listed = " + ".join(words.word(str(v)) for v in value) or words.gettext("none")
            parts.append(f"{name} {listed}")
        elif value is not False and value is not None:
            parts.append(f"{name} {value}")
    return ", ".join(parts)


# Draws a small picture in the panel: x in panel pixels, y from `top`.
Drawer = Callable[[Surface, float], None]


class PanelWriter(Protocol):
    """Where a panel's parts go, top to bottom."""

    def title(self, text: str) -> None: ...

    def heading(self, text: str) -> None: ...

    def line(self, text: str, colour: Colour, size: float, bold: bool) -> None: ...

    def swatch(self, colour: Colour, text: str, bold: bool) -> None:
        """A seat's colour and its name."""

    def detail(self, text: str) -> None:
        """A small line under a swatch."""

    def marker(self, colour: Colour, text: str) -> None:
        """What a colour drawn on the board means."""

    def gap(self, pixels: float) -> None: ...

    def drawing(self, height: float, name: str, draw: Drawer) -> None:
        """A small picture as wide as the panel's text (tiles or cards), named
        for screen readers."""


class PngPanel:
    """The panel drawn beside the board in the PNG."""

    def __init__(self, board_height: int = 0) -> None:
        self._canvas = Canvas(WIDTH, max(FIRST_HEIGHT, board_height) + HEADROOM, PANEL)
        self.y = float(PAD)

    @property
    def canvas(self) -> Canvas:
        """The canvas, with room for what is drawn next at the writing position."""
        if self._canvas.height < self.y + HEADROOM:
            self._canvas.set_height(max(2 * self._canvas.height, int(self.y + HEADROOM)))
        return self._canvas

    def paste_into(self, canvas: Canvas, x: int) -> None:
        """Onto `canvas` at `x`, as tall as it: cut at its foot, or continued
        below in the panel's colour (cheaper than resizing a supersampled canvas)."""
        drawn = self._canvas
        canvas.paste(drawn, x, 0)
        if drawn.height < canvas.height:
            canvas.rounded_rect((x, drawn.height, x + WIDTH, canvas.height), 0, fill=PANEL)

    def gap(self, pixels: float) -> None:
        self.y += pixels

    def title(self, text: str) -> None:
        self.canvas.text((PAD, self.y), text, 22, INK, bold=True, anchor="la")
        self.y += 32

    def heading(self, text: str) -> None:
        self.gap(6)
        self.canvas.text((PAD, self.y), text, 16, INK, bold=True, anchor="la")
        self.y += 24

    def line(self, text: str, colour: Colour, size: float, bold: bool) -> None:
        """Wrapped at word boundaries to the panel's width."""
        for part in self._wrap(text, size, bold):
            self.canvas.text((PAD, self.y), part, size, colour, bold=bold, anchor="la")
            self.y += size * 1.4

    def _wrap(self, text: str, size: float, bold: bool) -> list[str]:
        room = WIDTH - 2 * PAD
        lines, current = [], ""
        for word in text.split(" "):
            attempt = f"{current} {word}" if current else word
            if current and self.canvas.text_width(attempt, size, bold) > room:
                lines.append(current)
                current = "  " + word
            else:
                current = attempt
        return [*lines, current]

    def swatch(self, colour: Colour, text: str, bold: bool) -> None:
        top = self.y
        self.canvas.rounded_rect((PAD, top + 1, PAD + 18, top + 19), 4, colour, EDGE, 1.5)
        self.canvas.text((PAD + 28, top), text, TEXT, INK, bold=bold, anchor="la")
        self.y += 22

    def detail(self, text: str) -> None:
        self.canvas.text((PAD + 28, self.y), text, SMALL, MUTED, anchor="la")
        self.y += SMALL * 1.45

    def marker(self, colour: Colour, text: str) -> None:
        self.canvas.rounded_rect((PAD, self.y + 2, PAD + 18, self.y + 14), 3, colour, EDGE, 1.5)
        self.canvas.text((PAD + 28, self.y), text, SMALL, MUTED, anchor="la")
        self.y += SMALL * 1.6

    def drawing(self, height: float, name: str, draw: Drawer) -> None:
        draw(self.canvas, self.y)
        self.y += height

    def height(self) -> int:
        return int(self.y + PAD)


class HtmlPanel:
    """The panel as HTML text, its small pictures as inline SVG."""

    def __init__(self) -> None:
        self.parts: list[Markup] = []

    def _add(self, template: str, *values: object) -> None:
        self.parts.append(Markup(template).format(*values))

    def gap(self, pixels: float) -> None:
        """Spacing is the page's style sheet's business."""

    def title(self, text: str) -> None:
        self._add("<h2>{}</h2>", text)

    def heading(self, text: str) -> None:
        self._add("<h3>{}</h3>", text)

    def line(self, text: str, colour: Colour, size: float, bold: bool) -> None:
        classes = " ".join(
            name for name, wanted in (("muted", colour == MUTED), ("small", size < TEXT)) if wanted
        )
        shown = Markup("<strong>{}</strong>").format(text) if bold else escape(text)
        self._add('<p class="{}">{}</p>', classes, shown)

    def swatch(self, colour: Colour, text: str, bold: bool) -> None:
        shown = Markup("<strong>{}</strong>").format(text) if bold else escape(text)
        self._add(
            '<p class="swatch"><span class="dot" style="background: {}"></span> {}</p>',
            css_colour(colour),
            shown,
        )

    def detail(self, text: str) -> None:
        self._add('<p class="detail muted small">{}</p>', text)

    def marker(self, colour: Colour, text: str) -> None:
        self._add(
            '<p class="swatch muted small"><span class="mark" style="background: {}"></span>'
            " {}</p>",
            css_colour(colour),
            text,
        )

    def drawing(self, height: float, name: str, draw: Drawer) -> None:
        canvas = SvgCanvas(WIDTH - 2 * PAD, height, left=PAD)
        draw(canvas, 0)
        self.parts.append(canvas.markup(name, "panel-drawing"))

    def markup(self) -> Markup:
        return Markup('<section class="board-panel">{}</section>').format(
            Markup("").join(self.parts)
        )


class Panel:
    """A column of text and small drawings, written top to bottom."""

    def __init__(
        self, view: Mapping[str, Any], colours: Sequence[Colour], words: Words, out: PanelWriter
    ) -> None:
        self.view = view
        self.colours = colours
        self.words = words
        self.names: list[str] = list(view["seats"])
        self.out = out

    # -- writing ---------------------------------------------------------

    def gap(self, pixels: float = 8) -> None:
        self.out.gap(pixels)

    def heading(self, text: str) -> None:
        self.out.heading(text)

    def line(self, text: str, colour: Colour = INK, size: float = TEXT, bold: bool = False) -> None:
        self.out.line(text, colour, size, bold)

    def drawing(self, height: float, name: str, draw: Drawer) -> None:
        self.out.drawing(height, name, draw)

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.words.gettext("seat %(seat)s", seat=seat + 1)

    # -- the parts every game has ------------------------------------------

    def header(self, title: str, details: str = "") -> None:
        view = self.view
        self.out.title(title)
        viewer = view.get("viewer")
        words = self.words
        if viewer is not None:
            who = words.gettext("view of %(name)s", name=self.name(viewer))
        else:
            who = words.gettext("spectator view")
        self.line(f"{who}{' · ' + details if details else ''}", MUTED, SMALL)
        self.gap(4)
        if view.get("over"):
            self._result(view.get("result") or {})
        else:
            acting = ", ".join(self.name(s) for s in view.get("to_act", []))
            self.line(words.gettext("To act: %(names)s", names=acting), INK, TEXT, bold=True)

    def _result(self, result: Mapping[str, Any]) -> None:
        words = self.words
        winners = result.get("winners", [])
        if winners:
            names = ", ".join(self.name(s) for s in winners)
            won = words.ngettext(
                "Game over: %(names)s wins", "Game over: %(names)s win", len(winners), names=names
            )
            self.line(won, bold=True)
        else:
            self.line(words.gettext("Game over"), bold=True)
        if result.get("reason"):
            self.line(f"({words.word(result['reason'])})", MUTED, SMALL)
        scores = result.get("scores", [])
        for place, group in enumerate(result.get("ranking", []), start=1):
            for seat in group:
                score = scores[seat] if seat < len(scores) else {}
                detail = score_text(score, words)
                self.line(
                    f"{place}. {self.name(seat)}{': ' + detail if detail else ''}", size=SMALL
                )
        for seat in result.get("unranked", []):
            self.line(words.gettext("–  %(name)s: not ranked", name=self.name(seat)), MUTED, SMALL)

    def seats(self, details: Callable[[int], Sequence[str]]) -> None:
        """One row per seat in its colour: name, markers, then the game's details."""
        self.heading(self.words.gettext("Players"))
        acting = set(self.view.get("to_act", []))
        for seat, name in enumerate(self.names):
            marks = []
            if seat == self.view.get("viewer"):
                marks.append(self.words.gettext("(you)"))
            if seat in acting and not self.view.get("over"):
                marks.append(self.words.gettext("◀ to act"))
            text = f"{name}  {' '.join(marks)}".rstrip()
            self.out.swatch(self.colours[seat], text, seat in acting)
            for detail in details(seat):
                self.out.detail(detail)
            self.gap(6)

    def last_turn(self) -> None:
        """The turns the board outlines: every other player's since the
        viewer's last, else the last one."""
        turns = outlined_turns(self.view)
        if not turns:
            return
        words = self.words
        several = len(turns) > 1
        self.heading(
            words.gettext("Since your last turn") if several else words.gettext("Last turn")
        )
        for turn in turns:
            seat, moves = turn.seat, turn.moves
            self.out.swatch(self.colours[seat], self.name(seat), True)
            if not several:
                self.out.marker(self.colours[seat], words.gettext("spaces outlined on the board"))
            if len(moves) > MOVES_SHOWN:
                earlier = words.ngettext(
                    "… %(num)s earlier move", "… %(num)s earlier moves", len(moves) - MOVES_SHOWN
                )
                self.line(earlier, MUTED, SMALL)
            for move in moves[-MOVES_SHOWN:]:
                self.line(words.move(self.view["ruleset"], move), INK, SMALL)
        if several:
            self.line(words.gettext("each outlined on the board in its colour"), MUTED, SMALL)


def compose(
    layout: HexLayout,
    panel: PngPanel,
    draw_board: Callable[[Canvas], dict[str, tuple[float, float]]],
) -> Picture:
    """Board on the left, panel on the right, as tall as the taller of them."""
    height = max(layout.height, panel.height())
    canvas = Canvas(layout.width + WIDTH, height, BACKGROUND)
    centres = draw_board(canvas)
    panel.paste_into(canvas, layout.width)
    canvas.line([(layout.width, 0), (layout.width, height)], (210, 205, 195), 1)
    return Picture(canvas.finish(), canvas.labels, centres)
