"""The drawing as SVG elements: sharp at any size, and every board space an
element a page can find by its data-space and a screen reader can name.

Elements drawn outside an item (edges, labels, pieces over several spaces)
are grouped aria-hidden: the items carry what they mean in words."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from markupsafe import Markup, escape

from pbem.render.surface import Colour, Point

FONTS = "DejaVu Sans, Verdana, Arial, sans-serif"
# Pillow's text anchors: horizontal, then vertical (as the baseline's distance
# below the anchor, in ems of DejaVu Sans: "a" its ascender, "m" halfway to its
# descender). Placing the baseline ourselves reads the same in every browser,
# which dominant-baseline does not.
TEXT_ANCHORS = {"l": "start", "m": "middle", "r": "end"}
BASELINES = {"a": 0.928, "m": 0.346, "s": 0.0, "d": -0.236}


def number(value: float) -> str:
    """A tenth of a pixel is finer than any screen shows; fewer digits, lighter pages."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def colour_text(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _paint(fill: Colour | None, outline: Colour | None, width: float) -> str:
    paint = f' fill="{colour_text(fill)}"' if fill is not None else ' fill="none"'
    if outline is not None:
        paint += f' stroke="{colour_text(outline)}" stroke-width="{number(width)}"'
    return paint


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{number(x)},{number(y)}" for x, y in points)


class SvgCanvas:
    """An SVG picture of `width` x `height` pixels, its viewBox starting at (left, top)."""

    def __init__(
        self,
        width: float,
        height: float,
        background: Colour | None = None,
        left: float = 0,
        top: float = 0,
    ) -> None:
        self.width, self.height = width, height
        self.left, self.top = left, top
        self._body: list[str] = []
        self._loose: list[str] = []  # elements drawn since the last item
        self._item: list[str] | None = None
        # Lines drawn one after another in one stroke become one <path>: a
        # board's edges are hundreds of lines in a handful of strokes.
        self._stroke = ""
        self._path: list[str] = []
        if background is not None:
            self._add(
                f'<rect x="{number(left)}" y="{number(top)}" width="{number(width)}"'
                f' height="{number(height)}" fill="{colour_text(background)}"/>'
            )

    def _add(self, element: str) -> None:
        self._close_path()
        self._elements().append(element)

    def _elements(self) -> list[str]:
        return self._loose if self._item is None else self._item

    def _close_path(self) -> None:
        if self._path:
            self._elements().append(f'<path d="{"".join(self._path)}"{self._stroke}/>')
            self._path = []

    def _close_loose(self) -> None:
        self._close_path()
        if self._loose:
            self._body.append('<g aria-hidden="true">' + "".join(self._loose) + "</g>")
            self._loose = []

    @contextmanager
    def item(self, name: str, **marks: str) -> Iterator[None]:
        if self._item is not None:
            raise ValueError("items do not nest")
        self._close_loose()
        self._item = []
        try:
            yield
        finally:
            self._close_path()
            data = "".join(f' data-{key}="{escape(value)}"' for key, value in marks.items())
            label = escape(name)
            self._body.append(
                f'<g{data} role="img" aria-label="{label}"><title>{label}</title>'
                + "".join(self._item)
                + "</g>"
            )
            self._item = None

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        join = ' stroke-linejoin="round"' if outline is not None else ""
        self._add(f'<polygon points="{_points(points)}"{_paint(fill, outline, width)}{join}/>')

    def outline(self, points: Sequence[Point], colour: Colour, width: float) -> None:
        self.polygon(points, None, colour, width)

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1) -> None:
        stroke = f'{_paint(None, colour, width)} stroke-linecap="round" stroke-linejoin="round"'
        if stroke != self._stroke:
            self._close_path()
            self._stroke = stroke
        (x, y), *rest = points
        self._path.append(f"M{number(x)} {number(y)}")
        self._path.extend(f"L{number(x)} {number(y)}" for x, y in rest)

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        inset = width / 2 if outline is not None else 0
        x, y = centre
        self._add(
            f'<circle cx="{number(x)}" cy="{number(y)}" r="{number(radius - inset)}"'
            f"{_paint(fill, outline, width)}/>"
        )

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        inset = width / 2 if outline is not None else 0
        left, top, right, bottom = box
        wide, high = right - left - 2 * inset, bottom - top - 2 * inset
        self._add(
            f'<rect x="{number(left + inset)}" y="{number(top + inset)}" width="{number(wide)}"'
            f' height="{number(high)}" rx="{number(max(radius - inset, 0))}"'
            f"{_paint(fill, outline, width)}/>"
        )

    def text(
        self,
        xy: Point,
        text: str,
        size: float,
        fill: Colour,
        bold: bool = False,
        anchor: str = "mm",
    ) -> None:
        x, y = xy
        baseline = y + BASELINES[anchor[1]] * size
        weight = ' font-weight="bold"' if bold else ""
        align = TEXT_ANCHORS[anchor[0]]
        align = f' text-anchor="{align}"' if align != "middle" else ""  # the picture's default
        self._add(
            f'<text x="{number(x)}" y="{number(baseline)}" font-size="{number(size)}"'
            f' fill="{colour_text(fill)}"{weight}{align}>{escape(text)}</text>'
        )

    def markup(self, name: str, css_class: str = "") -> Markup:
        """The whole picture as one <svg> element, named `name` for screen readers."""
        self._close_loose()
        box = " ".join(number(v) for v in (self.left, self.top, self.width, self.height))
        classes = f' class="{escape(css_class)}"' if css_class else ""
        return Markup(
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}"'
            f' width="{number(self.width)}" height="{number(self.height)}"{classes}'
            f' role="group" aria-label="{escape(name)}" font-family="{FONTS}"'
            ' text-anchor="middle">' + "".join(self._body) + "</svg>"
        )
