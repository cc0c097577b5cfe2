"""Palette PNGs: small, and every seat's colour drawn exactly as the pages show it."""

from __future__ import annotations

import pytest

from pbem.render import render_picture, render_png
from pbem.render.colours import parse_colour
from tests.render.helpers import bot_game, image

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
