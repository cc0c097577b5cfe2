"""The side panel grows with what it holds, and is never cut or padded with black."""

from __future__ import annotations

from pbem.render.colours import PANEL
from pbem.render.hexdraw import HexLayout
from pbem.render.panel import FIRST_HEIGHT, WIDTH, Panel, PngPanel, compose
from pbem.render.words import Words

VIEW = {"seats": ["Ann", "Bob"]}


def picture_of(lines: int, board_height: float):
    panel = PngPanel()
    writer = Panel(VIEW, [(200, 0, 0), (0, 0, 200)], Words(), panel)
    for number in range(lines):
        writer.line(f"line {number}")
    layout = HexLayout([(0, 0)], 300, board_height, 40, 10, min_height=board_height)
    return panel, compose(layout, panel, lambda canvas: {})


def test_a_panel_longer_than_its_first_canvas_keeps_every_line():
    panel, picture = picture_of(lines=120, board_height=300)
    assert panel.height() > 2 * FIRST_HEIGHT
    assert picture.image.height == panel.height()
    assert picture.texts()[-1] == "line 119"
    last = next(label for label in picture.labels if label.text == "line 119")
    assert last.y < picture.image.height
    # below the last line: the panel's own colour, not an unpainted canvas
    corner = (picture.image.width - 5, picture.image.height - 5)
    assert picture.image.convert("RGB").getpixel(corner) == PANEL


def test_a_short_panel_beside_a_tall_board_is_extended_in_its_colour():
    panel, picture = picture_of(lines=3, board_height=1500)
    assert picture.image.height >= 1500 > panel.height()
    below = (picture.image.width - WIDTH // 2, picture.image.height - 5)
    assert picture.image.convert("RGB").getpixel(below) == PANEL


def test_the_panel_lists_every_other_players_turn_since_the_readers_last():
    from pbem.render import render_panel_html
    from tests.render.helpers import bot_game, cut

    game = bot_game("taluva", 3, "panel")
    ply = next(
        ply
        for ply in range(len(game.log) // 2, len(game.log))
        if game.log[ply].seat == 0 and game.log[ply - 1].seat != 0
    )
    view = cut(game, ply).view(0)  # seat 0 to move: the two others moved since
    html = str(render_panel_html(view))
    since = html.split("Since your last turn", 1)[1]
    assert view["seats"][1] in since and view["seats"][2] in since
    assert "Last turn" not in html
    assert "Last turn" in str(render_panel_html(cut(game, ply).view(None)))  # a watcher
