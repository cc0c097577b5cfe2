"""Drawing at several times the final size, then averaging down: Pillow draws
hard pixel edges, so supersampling is what gives smooth hexes and text.

Everything here speaks in final-picture pixels; the canvas scales internally.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.core.hexgrid import DIRECTIONS, to_pixel
from pbem.render.surface import Colour, Point

SCALE = 2  # 3 looked the same at 1:1 and cost a third more to draw
FONT_DIR = Path(__file__).parent / "fonts"


@lru_cache(maxsize=64)
def font(pixels: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Only the shipped DejaVu files: a system font would make pictures differ by machine."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), pixels)


@lru_cache(maxsize=1024)  # a board's labels; a panel's one-off lines pass through
def _text_mask(text: str, pixels: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A text's coverage, drawn once per process: boards repeat the same space
    names and numbers in every picture, and laying out glyphs is most of the
    cost of drawing one. Returns the mask and its offset from the anchor."""
    shape = font(pixels, bold)
    # FreeType measures in whole pixels, though Pillow types the box as floats.
    left, top, right, bottom = (int(edge) for edge in shape.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), text, font=shape, fill=255, anchor=anchor)
    return mask, left, top


@dataclass(frozen=True)
class Label:
    """A text drawn on the picture, kept so tests can read what a picture says."""

    text: str
    x: float
    y: float


class Canvas:
    """A supersampled RGB image addressed in final pixels, remembering its texts
    (a pbem.render.surface.Surface)."""

    def __init__(self, width: int, height: int, background: Colour) -> None:
        self.width, self.height = width, height
        self.background = background
        self.image = Image.new("RGB", (width * SCALE, height * SCALE), background)
        self.draw = ImageDraw.Draw(self.image)
        self.labels: list[Label] = []

    @staticmethod
    def _pts(points: Iterable[Point]) -> list[tuple[float, float]]:
        return [(x * SCALE, y * SCALE) for x, y in points]

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        self.draw.polygon(self._pts(points), fill=fill)
        if outline is not None:
            self.outline(points, outline, width)

    def outline(self, points: Sequence[Point], colour: Colour, width: float) -> None:
        closed = [*points, points[0]]
        self.draw.line(self._pts(closed), fill=colour, width=round(width * SCALE), joint="curve")

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1) -> None:
        self.draw.line(self._pts(points), fill=colour, width=round(width * SCALE))
        if width * SCALE < 3:  # a cap that thin would not show
            return
        radius = width / 2
        for x, y in (points[0], points[-1]):  # round caps, so joined edges meet cleanly
            self.circle((x, y), radius, fill=colour)

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        x, y = centre
        box = [
            (x - radius) * SCALE,
            (y - radius) * SCALE,
            (x + radius) * SCALE,
            (y + radius) * SCALE,
        ]
        self.draw.ellipse(box, fill=fill, outline=outline, width=round(width * SCALE))

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        self.draw.rounded_rectangle(
            [v * SCALE for v in box],
            radius=radius * SCALE,
            fill=fill,
            outline=outline,
            width=round(width * SCALE),
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
        """`anchor` as in Pillow: "mm" centres, "la" puts the top left at xy."""
        x, y = xy
        mask, left, top = _text_mask(text, round(size * SCALE), bold, anchor)
        self.image.paste(fill, (round(x * SCALE) + left, round(y * SCALE) + top), mask)
        self.labels.append(Label(text, x, y))

    def item(self, name: str, **marks: str) -> AbstractContextManager[None]:
        """Pixels have no elements to name: the PNG says it in the text beside it."""
        return nullcontext()

    def text_width(self, text: str, size: float, bold: bool = False) -> float:
        return font(round(size * SCALE), bold).getlength(text) / SCALE

    def paste(self, other: Canvas, x: int, y: int) -> None:
        self.image.paste(other.image, (x * SCALE, y * SCALE))
        self.labels.extend(Label(lb.text, lb.x + x, lb.y + y) for lb in other.labels)

    def set_height(self, height: int) -> None:
        """Cut the canvas to `height`, or extend it with its background."""
        if height > self.height:
            taller = Image.new("RGB", (self.width * SCALE, height * SCALE), self.background)
            taller.paste(self.image, (0, 0))
            self.image = taller
        else:
            self.image = self.image.crop((0, 0, self.width * SCALE, height * SCALE))
        self.height = height
        self.draw = ImageDraw.Draw(self.image)

    def finish(self) -> Image.Image:
        """Average each SCALE x SCALE block: the antialiasing step."""
        return self.image.reduce(SCALE)


@dataclass
class Picture:
    """A rendered board: the image, the texts on it and where each space is drawn."""

    image: Image.Image
    labels: list[Label] = field(default_factory=list)
    centres: dict[str, Point] = field(default_factory=dict)

    def texts(self) -> list[str]:
        return [label.text for label in self.labels]


# Screen angle (degrees, y downwards) of each direction in hexgrid.DIRECTIONS.
_DIRECTION_ANGLES = (270, 330, 30, 90, 150, 210)


class HexLayout:
    """Where the hexes of one board go: a hex size fitted to a box, plus a margin."""

    def __init__(
        self,
        hexes: Iterable[tuple[int, int]],
        max_width: float,
        max_height: float,
        max_size: float,
        margin: float,
        min_width: float = 0,
        min_height: float = 0,
    ) -> None:
        hexes = list(hexes) or [(0, 0)]
        unit = [to_pixel(h, 1.0) for h in hexes]
        xs, ys = [p[0] for p in unit], [p[1] for p in unit]
        # Extent in units of the hex size: centres spread plus one hex around them.
        span_x = max(xs) - min(xs) + 2.0
        span_y = max(ys) - min(ys) + math.sqrt(3)
        self.size = min(
            max_size, (max_width - 2 * margin) / span_x, (max_height - 2 * margin) / span_y
        )
        natural_width = span_x * self.size + 2 * margin
        natural_height = span_y * self.size + 2 * margin
        self.width = math.ceil(max(min_width, natural_width))
        self.height = math.ceil(max(min_height, natural_height))
        # A small board sits in the middle of its minimum area.
        self.origin = (
            (self.width - natural_width) / 2 + margin + self.size * (1.0 - min(xs)),
            (self.height - natural_height) / 2 + margin + self.size * (math.sqrt(3) / 2 - min(ys)),
        )

    def shift(self, dx: float, dy: float) -> None:
        """Move the whole board, e.g. to draw a small one inside a panel."""
        self.origin = (self.origin[0] + dx, self.origin[1] + dy)

    def centre(self, h: tuple[int, int]) -> Point:
        x, y = to_pixel(h, self.size)
        return self.origin[0] + x, self.origin[1] + y

    def corners(self, h: tuple[int, int], scale: float = 1.0) -> list[Point]:
        """The six corners, starting east and going clockwise on screen."""
        cx, cy = self.centre(h)
        r = self.size * scale
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]

    def edge(self, h: tuple[int, int], direction: int, scale: float = 1.0) -> tuple[Point, Point]:
        """The side of `h` that faces its neighbour in DIRECTIONS[direction]."""
        cx, cy = self.centre(h)
        r = self.size * scale
        angle = _DIRECTION_ANGLES[direction]

        def corner(a: float) -> Point:
            return cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))

        return corner(angle - 30), corner(angle + 30)


def neighbour(h: tuple[int, int], direction: int) -> tuple[int, int]:
    dq, dr = DIRECTIONS[direction]
    return h[0] + dq, h[1] + dr
