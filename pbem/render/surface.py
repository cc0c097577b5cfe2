"""What the game drawers draw on: one drawing, written out as a PNG
(hexdraw.Canvas) or as SVG elements (svgdraw.SvgCanvas), so the board's
geometry and colours live in the drawers only."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol

Colour = tuple[int, int, int]
Point = tuple[float, float]


class Surface(Protocol):
    """Coordinates in final-picture pixels, y downwards."""

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None: ...

    def outline(self, points: Sequence[Point], colour: Colour, width: float) -> None:
        """A closed line along `points`, centred on them."""

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1) -> None: ...

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        """The outline lies inside `radius`, as Pillow draws it."""

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        """The outline lies inside `box`, as Pillow draws it."""

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

    def item(self, name: str, **marks: str) -> AbstractContextManager[None]:
        """What is drawn inside is one thing a reader can point at: a board
        space, a tile in hand, a card. `name` is its accessible name; `marks`
        become data- attributes (space="B3") so pages and tests find it."""
