"""Palette PNGs: small, and every seat's colour drawn exactly as the pages show it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pbem.render import render_board_and_panel, render_picture, render_png
from pbem.render.colours import parse_colour
from pbem.render.panel import WIDTH
from tests.render.helpers import bot_game, cut_in_two, image

TARGET_BYTES = 150 * 1024
# A name from the palette, one kept for older games, and colours nobody named.
CHOSEN = ("red", "green", "#3a7f9c", "#d0e0f0")


def colour_counts(png: bytes) -> dict[tuple[int, int, int], int]:
    picture = image(png)
    return {colour: count for count, colour in picture.getcolors(picture.width**2)}


@pytest.mark.parametrize("ruleset", ["java", "taluva", "samurai"])
def test_seat_colours_survive_quantisation_exactly(ruleset: str) -> None:
    view = bot_game(ruleset, 4, "palette").view(None)
    wanted = {parse_colour(c): c for c in CHOSEN}
    drawn = colour_counts(render_png(view, CHOSEN))
    full = render_picture(view, CHOSEN).image
    before = {colour: count for count, colour in full.getcolors(full.width * full.height)}
    for colour, name in wanted.items():
        assert before.get(colour, 0) >= 100, name  # the renderer draws the seat...
        assert drawn.get(colour, 0) >= before[colour] * 0.95, name  # ...and the PNG keeps it


def test_late_java_position_is_under_the_target_size() -> None:
    game = bot_game("java", 4, "palette")
    assert len(game.to_record().moves) > 400
    for seat in (None, 0):
        png = render_png(game.view(seat))
        assert len(png) <= TARGET_BYTES
        assert len(colour_counts(png)) <= 256


def opened(png: bytes) -> Image.Image:
    """The PNG as stored: palette pixels, no conversion."""
    return Image.open(io.BytesIO(png))


def last_drawn_row(picture: Image.Image) -> int:
    """Row by row from the foot: the last row not all of the corner's colour."""
    corner = picture.getpixel((picture.width - 1, picture.height - 1))
    for y in range(picture.height - 1, 0, -1):
        if picture.crop((0, y, picture.width, y + 1)).getextrema() != (corner, corner):
            return y
    return 0


@pytest.mark.parametrize("ruleset", ["java", "taluva", "samurai"])
def test_board_and_panel_end_eight_rows_below_their_last_drawing(ruleset: str) -> None:
    view = bot_game(ruleset, 3, "split").view(0)
    png = render_png(view)
    whole = opened(png)
    board_width = whole.width - WIDTH
    uncut = (
        whole.crop((0, 0, board_width, whole.height)),
        whole.crop((board_width + 1, 0, whole.width, whole.height)),
    )
    parts = render_board_and_panel(view)
    assert parts == cut_in_two(png)  # a mail's two pictures are the whole one, cut
    for part, before in zip(parts, uncut, strict=True):
        cut = opened(part)
        assert cut.width == before.width
        assert cut.height == min(last_drawn_row(before) + 9, before.height) < before.height
        assert cut.tobytes() == before.crop((0, 0, cut.width, cut.height)).tobytes()
