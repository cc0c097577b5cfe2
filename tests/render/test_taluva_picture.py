"""The Taluva picture shows every space, level and building of the seat's view."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest

from engine.core.game import Game
from pbem.render import render_picture, render_png, space_centres, taluva
from pbem.render.colours import PLAYER_COLOURS, TALUVA_TERRAIN
from pbem.render.lastturn import last_turn, spaces_named
from tests.render.helpers import RING, bot_game, close, cut, image, pixel

# Where inside a hex of size s (from its centre) each building kind shows its
# owner's colour clear of the text drawn on it.
BUILDING_SPOT = {"hut": (-0.18, 0.22), "temple": (-0.26, 0.28), "tower": (0.0, 0.26)}


def mid_game_view(seat: int | None) -> dict[str, Any]:
    return cut(bot_game("taluva", 3, "render"), 21).view(seat)


def known_view() -> dict[str, Any]:
    """A finished real game with a tower on a level-3 space and a temple added by hand,
    so every kind of building and several levels are on the board."""
    view = copy.deepcopy(bot_game("taluva", 2, "e").view(None))
    board = [c for c in view["state"]["board"] if c["terrain"] != "volcano" and not c["building"]]
    board[0].update(building="tower", owner=1, huts=0, level=3)
    board[1].update(building="temple", owner=0, huts=0, level=2)
    return view


def check_every_piece(view: dict[str, Any]) -> None:
    picture = render_picture(view)
    size = taluva.layout(view).size
    centres = space_centres(view)
    assert picture.centres == centres
    for cell in view["state"]["board"]:
        x, y = centres[cell["space"]]
        terrain = pixel(picture, x + 0.42 * size, y)
        assert close(terrain, TALUVA_TERRAIN[cell["terrain"]]), cell
        assert cell["space"] in picture.texts()
        if cell["building"]:
            dx, dy = BUILDING_SPOT[cell["building"]]
            colour = pixel(picture, x + dx * size, y + (0.02 + dy) * size)
            assert close(colour, PLAYER_COLOURS[cell["owner"]]), cell


def test_every_space_shows_its_terrain_name_and_buildings_in_owner_colour() -> None:
    check_every_piece(mid_game_view(0))


def test_temples_towers_and_levels_are_drawn() -> None:
    view = known_view()
    check_every_piece(view)
    picture = render_picture(view)
    levels = {str(c["level"]) for c in view["state"]["board"]}
    assert {"1", "2", "3"} <= levels <= set(picture.texts())
    assert {"T", "W"} <= set(picture.texts())


def test_last_turn_spaces_are_outlined() -> None:
    view = mid_game_view(None)
    picture = render_picture(view)
    size = taluva.layout(view).size
    turn = last_turn(view["history"])
    named = spaces_named(turn.moves, (c["space"] for c in view["state"]["board"]))
    assert len(named) >= 3  # the tile's three spaces at least
    for name, (x, y) in picture.centres.items():
        ring = pixel(picture, x + RING[0] * size, y + RING[1] * size)
        assert close(ring, PLAYER_COLOURS[turn.seat]) == (name in named), name


def test_tile_in_hand_shows_only_to_the_player_who_drew_it() -> None:
    game = cut(bot_game("taluva", 3, "render"), 20)
    current = game.state.current
    hand = game.view(current)["state"]["tile_in_hand"]
    assert hand is not None
    own = render_picture(game.view(current)).texts()
    assert "Your tile" in own
    assert f"left: {hand['left']}" in own and f"right: {hand['right']}" in own
    for seat in [None, *(s for s in range(3) if s != current)]:
        texts = render_picture(game.view(seat)).texts()
        assert "Your tile" not in texts
        assert not any(t.startswith(("left:", "right:")) for t in texts)


def test_panel_names_seats_whose_turn_and_stock() -> None:
    view = mid_game_view(1)
    texts = render_picture(view).texts()
    acting = view["seats"][view["to_act"][0]]
    assert f"To act: {acting}" in texts
    assert any(t.startswith(view["seats"][1]) and "(you)" in t for t in texts)
    stock = view["state"]["players"][2]["stock"]
    wanted = f"in stock: {stock['hut']} huts · {stock['temple']} temples · {stock['tower']} towers"
    assert wanted in texts


def test_same_view_gives_the_same_bytes() -> None:
    view = mid_game_view(0)
    assert render_png(view) == render_png(copy.deepcopy(view))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finished_bot_game_renders_for_every_seat(players: int) -> None:
    game = bot_game("taluva", players, "end")
    for seat in [None, *range(players)]:
        view = game.view(seat)
        started = time.process_time()
        png = render_png(view)
        assert time.process_time() - started < 1.0
        picture = image(png)
        assert 1000 <= picture.width <= 1600
        assert "Game over" in " ".join(render_picture(view).texts())
    check_every_piece(game.view(None))


def test_seat_colours_chosen_by_the_server_are_used() -> None:
    view = mid_game_view(None)
    picture = render_picture(view, ["green", "#102030", "orange"])
    size = taluva.layout(view).size
    hut = next(c for c in view["state"]["board"] if c["building"] == "hut" and c["owner"] == 1)
    x, y = picture.centres[hut["space"]]
    dx, dy = BUILDING_SPOT["hut"]
    assert close(pixel(picture, x + dx * size, y + (0.02 + dy) * size), (16, 32, 48))


def test_empty_island_before_the_first_tile() -> None:
    game = cut(bot_game("taluva", 2, "render"), 0)
    picture = render_picture(game.view(0))
    assert picture.centres == {}
    assert "No tile on the table yet: the first volcano goes on 0,0" in picture.texts()
    assert "Your tile" in picture.texts()


def test_counts_of_one_are_singular() -> None:
    texts = render_picture(cut(bot_game("taluva", 2, "e"), 44).view(None)).texts()
    assert "spectator view · 1 tile left in the pile" in texts
    assert any("1 temple ·" in t for t in texts)


def _after_an_extension() -> tuple[Game, str]:
    """A bot game cut right after a turn that extended a settlement, and that move."""
    for seed in ("extend", "render", "e", "end", "x1", "x2", "x3"):
        game = bot_game("taluva", 2, seed)
        for ply, entry in enumerate(game.log, start=1):
            if entry.text.startswith("extend"):
                return cut(game, ply), entry.text
    raise AssertionError("no bot game extended a settlement")


def test_an_extension_outlines_the_new_huts_not_the_named_space() -> None:
    game, extend = _after_an_extension()
    before = cut_before(game)
    huts_before = {c["space"] for c in before.view(None)["state"]["board"] if c["huts"]}
    view = game.view(None)
    new_huts = {c["space"] for c in view["state"]["board"] if c["huts"]} - huts_before
    named_space = extend.split()[1]
    assert new_huts and named_space not in new_huts
    turn = last_turn(view["history"])
    tile = spaces_named(turn.moves[:1], (c["space"] for c in view["state"]["board"]))
    picture = render_picture(view)
    size = taluva.layout(view).size
    for name, (x, y) in picture.centres.items():
        ring = pixel(picture, x + RING[0] * size, y + RING[1] * size)
        assert close(ring, PLAYER_COLOURS[turn.seat]) == (name in tile | new_huts), name


def cut_before(game: Game) -> Game:
    return cut(game, len(game.log) - 1)
