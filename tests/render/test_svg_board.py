"""The SVG board: well-formed, one named group per board space (the spaces the
PNG draws), the side panel as HTML, and only what the viewing seat may see."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from engine.core.game import Game
from pbem.render import render_panel_html, render_svg, space_centres, taluva
from tests.render.helpers import bot_game, cut

SVG = "{http://www.w3.org/2000/svg}"
GAMES = ("taluva", "samurai", "java")


def mid_game(name: str) -> Game:
    game = bot_game(name, 3, "render")
    return cut(game, len(game.log) // 2)


def spaces(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-space"): g for g in root.iter(f"{SVG}g") if g.get("data-space")}


def marked(markup: str, mark: str) -> list[dict[str, str]]:
    """The attributes of every element carrying data-`mark`, in HTML or SVG."""
    root = ET.fromstring(f"<div>{markup}</div>")
    return [dict(e.attrib) for e in root.iter() if f"data-{mark}" in e.attrib]


@pytest.mark.parametrize("name", GAMES)
def test_every_space_is_a_named_group_of_the_board(name: str) -> None:
    view = mid_game(name).view(0)
    svg = render_svg(view)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    found = spaces(svg)
    board = set(space_centres(view))
    ground = {f"{q},{r}" for q, r in taluva.open_ground(view)} if name == "taluva" else set()
    assert set(found) == board | ground and not board & ground
    for space, group in found.items():
        label = group.get("aria-label") or ""
        assert group.get("role") == "img" and label.startswith(f"{space}: "), label
        assert group.find(f"{SVG}title").text == label
        assert len(group) > 1  # the title and what is drawn


def test_every_space_a_taluva_tile_may_cover_can_be_clicked() -> None:
    game = mid_game("taluva")
    seat = min(game.state.to_act())
    found = spaces(render_svg(game.view(seat)))
    tiles = [
        text
        for text in map(game.state.format_move, game.state.legal_moves(seat))
        if text.startswith("tile ")
    ]
    assert tiles, "the position should ask for a tile"
    covered = {space for text in tiles for space in text.split()[1:4]}
    assert covered <= set(found)
    assert found["0,0"].get("aria-label") != "0,0: open ground"  # the island's own first space
    # Only the player laying a tile gets the open ground; watchers never.
    assert taluva.open_ground(game.view(None)) == []
    assert taluva.open_ground(game.view((seat + 1) % len(game.seats))) == []


def test_a_taluva_space_says_terrain_level_and_building() -> None:
    view = mid_game("taluva").view(None)
    found = spaces(render_svg(view))
    cell = next(c for c in view["state"]["board"] if c["building"] == "hut")
    label = found[cell["space"]].get("aria-label")
    owner = view["seats"][cell["owner"]]
    assert f"{cell['terrain']}, level {cell['level']}" in label
    assert label.endswith(f"hut of {owner}") or label.endswith(f"huts of {owner}")


def test_java_and_samurai_spaces_name_their_pieces() -> None:
    java = mid_game("java").view(None)
    developer, seat = next(iter(java["state"]["developers"].items()))
    assert f"developer of {java['seats'][seat]}" in spaces(render_svg(java))[developer].get(
        "aria-label"
    )
    samurai = bot_game("samurai", 3, "end").view(None)
    space, placed = next(iter(samurai["state"]["tiles"].items()))
    label = spaces(render_svg(samurai))[space].get("aria-label")
    assert f"of {samurai['seats'][placed['seat']]}" in label


@pytest.mark.parametrize("name", GAMES)
def test_the_panel_is_html_text(name: str) -> None:
    view = mid_game(name).view(1)
    html = render_panel_html(view)
    root = ET.fromstring(html)
    assert root.get("class") == "board-panel"
    text = "".join(root.itertext())
    assert "Players" in text and f"{view['seats'][1]}  (you)" in text


def taluva_with_seat_1_holding_a_tile() -> Game:
    game = bot_game("taluva", 3, "render")
    return next(
        cut(game, ply)
        for ply in range(len(game.log))
        if cut(game, ply).view(1)["state"].get("tile_in_hand")
    )


def samurai_in_play() -> Game:
    game = bot_game("samurai", 3, "render")
    return next(
        cut(game, ply) for ply in range(len(game.log)) if cut(game, ply).state.phase == "play"
    )


HIDDEN: dict[str, Any] = {
    "taluva": taluva_with_seat_1_holding_a_tile,
    "samurai": samurai_in_play,
    "java": lambda: mid_game("java"),
}


@pytest.mark.parametrize("name", GAMES)
def test_a_seats_drawing_holds_nothing_of_another_seats_hand(name: str) -> None:
    """Seat 1's tiles or cards show in its own drawing, marked with its seat,
    and nowhere in seat 0's or a spectator's."""
    game = HIDDEN[name]()

    def hand_items(seat: int | None) -> list[dict[str, str]]:
        view = game.view(seat)
        return marked(render_svg(view) + render_panel_html(view), "seat")

    own = hand_items(1)
    assert own and all(item["data-seat"] == "1" for item in own)
    assert not [item for item in hand_items(0) if item["data-seat"] != "0"]
    assert hand_items(None) == []


def test_the_empty_tables_caption_stays_clear_of_the_spaces_to_click() -> None:
    game = cut(bot_game("taluva", 2, "render"), 0)
    seat = min(game.state.to_act())
    root = ET.fromstring(render_svg(game.view(seat)))
    caption = next(t for t in root.iter(f"{SVG}text") if (t.text or "").startswith("No tile"))
    size = float(caption.get("font-size"))
    top, bottom = float(caption.get("y")) - size, float(caption.get("y")) + 0.3 * size
    hexes = [
        [float(v) for v in polygon.get("points").replace(",", " ").split()]
        for polygon in root.iter(f"{SVG}polygon")
    ]
    assert len(hexes) == 7  # 0,0 and the spaces around it
    for points in hexes:
        ys = points[1::2]
        assert bottom < min(ys) or top > max(ys)
