"""Palette PNGs: a board drawn in a few dozen flat colours plus antialiased
edges needs no 24-bit pixels. Every colour the renderer names, and each seat's
colour, is kept exactly; an adaptive part covers the blends at edges and text."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageChops

from pbem.render import colours
from pbem.render.surface import Colour

# Colours for the blends; with the named ones the PNG stays <= 150 KB for a late Java board.
BLENDS = 64
# Pillow maps pixels to a palette through a cache of 4x4x4 colour cells; a blend
# this close to a named colour could take that colour's pixels, so it is left out.
KEEP_APART = 8

NAMED: tuple[Colour, ...] = tuple(
    dict.fromkeys(
        [
            *colours.NAMED_COLOURS.values(),
            colours.BACKGROUND,
            colours.PANEL,
            colours.INK,
            colours.MUTED,
            colours.EDGE,
            colours.LAVA,
            colours.PALACE,
            colours.FESTIVAL,
            colours.CARD,
            (255, 255, 255),
            *colours.TALUVA_TERRAIN.values(),
            *colours.SAMURAI_SPACE.values(),
            *colours.SAMURAI_FIGURE.values(),
            *colours.JAVA_BOARD.values(),
            *colours.JAVA_FACE.values(),
        ]
    )
)


def palette_png(image: Image.Image, seats: Sequence[Colour]) -> bytes:
    """No text chunks or timestamps, fixed compression: equal images, equal bytes."""
    out = io.BytesIO()
    # Level 4: two thirds of the time of 6 for a few more bytes (a late
    # 4-player Java board 133 KB, not 125); 3 gave 150 KB.
    quantised(image, seats).save(out, format="PNG", compress_level=4)
    return out.getvalue()


def quantised(image: Image.Image, seats: Sequence[Colour]) -> Image.Image:
    """`image` in palette mode: the named and seat colours exact, blends nearest."""
    exact = list(dict.fromkeys([*seats, *NAMED]))
    adaptive = image.reduce(4).quantize(
        BLENDS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    found = adaptive.getpalette() or []
    blends = [tuple(found[i : i + 3]) for i in range(0, len(found), 3)]
    chosen = exact + [c for c in blends if not _near(c, exact)][: 256 - len(exact)]
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in chosen for value in colour])
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _near(colour: Sequence[int], others: Sequence[Colour]) -> bool:
    r, g, b = colour
    return any(
        abs(r - x) < KEEP_APART and abs(g - y) < KEEP_APART and abs(b - z) < KEEP_APART
        for x, y, z in others
    )


def cut_board_and_panel(image: Image.Image, panel_width: int) -> tuple[bytes, bytes]:
    """A picture cut into its board and its side panel (the right-hand
    `panel_width` pixels), each a PNG trimmed of the empty background below it.

    A mail reader scales a wide picture down to its column (about 600
    pixels), which leaves the panel's words too small to read; shown as a
    picture of its own, the panel keeps its size."""
    board_width = image.width - panel_width
    boxes = ((0, 0, board_width, image.height), (board_width + 1, 0, image.width, image.height))
    board, panel = (_without_empty_foot(image.crop(box)) for box in boxes)
    return board, panel


def _without_empty_foot(part: Image.Image) -> bytes:
    """`part` as PNG, cut above the rows at its foot that are all background
    (the colour of its bottom-right pixel)."""
    drawn = _not_background(part).getbbox()
    height = drawn[3] if drawn else 1
    out = io.BytesIO()
    part.crop((0, 0, part.width, min(height + 8, part.height))).save(
        out, format="PNG", compress_level=4
    )
    return out.getvalue()


def _not_background(part: Image.Image) -> Image.Image:
    """`part` with its background pixels 0 and the rest not (for `getbbox`)."""
    background = part.getpixel((part.width - 1, part.height - 1))
    if part.mode in ("P", "L"):
        return part.point([0 if value == background else 255 for value in range(256)])
    return ImageChops.difference(part, Image.new(part.mode, part.size, background))
