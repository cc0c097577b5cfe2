"""The Samurai picture shows every space, tile and figure, and each screen only
to the seat behind it (to everyone once the game is over)."""

from __future__ import annotations

import copy
import re
import time
from typing import Any

import pytest

from pbem.render import panel, render_picture, render_png, samurai, space_centres
from pbem.render.colours import PLAYER_COLOURS, SAMURAI_FIGURE, SAMURAI_SPACE
from pbem.render.lastturn import last_turn, spaces_named
from tests.render.helpers import RING, bot_game, close, cut, image, pixel, share


def play_view(seat: int | None) -> dict[str, Any]:
    """Three players well into the play phase, with tiles and figures on the map."""
    game = bot_game("samurai", 3, "render")
    return cut(game, 70).view(seat)


def check_every_piece(view: dict[str, Any]) -> None:
    picture = render_picture(view)
    assert picture.centres == space_centres(view)
    size = samurai.layout(view).size
    state = view["state"]
    for space in state["spaces"]:
        x, y = picture.centres[space["name"]]
        assert space["name"] in picture.texts()
        if space["name"] in state["tiles"]:
            placed = state["tiles"][space["name"]]
            # lower left inside the tile, clear of its label
            colour = pixel(picture, x - 0.26 * size, y + 0.36 * size)
            assert close(colour, PLAYER_COLOURS[placed["seat"]]), space
            assert samurai.tile_label(placed["tile"]) in picture.texts()
        elif not space["slots"]:
            edge_side = pixel(picture, x - 0.55 * size, y)
            assert close(edge_side, SAMURAI_SPACE[space["kind"]]), space
        figures = state["figures"].get(space["name"], [])
        slots = max(space["slots"], len(figures), 1)
        for i, figure in enumerate(figures):
            fx = x + 0.46 * size * (i - (slots - 1) / 2)
            drawn = share(picture, fx, y + 0.12 * size, 0.14 * size, SAMURAI_FIGURE[figure])
            assert drawn > 0.4, (space, figure)


def test_every_space_tile_and_figure_is_drawn() -> None:
    view = play_view(0)
    assert len(view["state"]["tiles"]) >= 10
    check_every_piece(view)


def test_setup_shows_figures_still_to_place_and_empty_places() -> None:
    game = bot_game("samurai", 2, "render")
    view = cut(game, 4).view(None)  # both chose, two figures placed
    assert view["state"]["phase"] == "figures"
    check_every_piece(view)
    texts = render_picture(view).texts()
    assert any(t.startswith("still to place:") for t in texts)


def test_last_turn_spaces_are_outlined() -> None:
    view = play_view(None)
    picture = render_picture(view)
    size = samurai.layout(view).size
    turn = last_turn(view["history"])
    named = spaces_named(turn.moves, picture.centres)
    assert named
    for name, (x, y) in picture.centres.items():
        ring = pixel(picture, x + RING[0] * size, y + RING[1] * size)
        assert close(ring, PLAYER_COLOURS[turn.seat]) == (name in named), name


def is_tile_label(text: str) -> bool:
    return re.fullmatch(r"(H|B|R|S|Sh)[1-4]|Ro|TX|FX", text) is not None


def panel_texts(picture: Any) -> list[str]:
    left = picture.image.width - panel.WIDTH
    return [label.text for label in picture.labels if label.x >= left]


def test_hand_shows_only_behind_its_own_screen() -> None:
    views = {seat: play_view(seat) for seat in (None, 0, 1, 2)}
    for seat in (0, 1, 2):
        hand = [samurai.tile_label(c) for c in views[seat]["state"]["seats"][seat]["hand"]]
        assert len(hand) == 5
        texts = panel_texts(render_picture(views[seat]))
        assert "Behind your screen" in texts
        assert [t for t in texts if is_tile_label(t)] == hand
        assert not any(t.endswith("'s screen") for t in texts)
        assert any(t.startswith("pile holds:") for t in texts)
    spectator = panel_texts(render_picture(views[None]))
    assert not any(is_tile_label(t) for t in spectator)
    assert not any(t.startswith(("Behind", "hand:", "pile holds:", "captured:")) for t in spectator)


def test_all_screens_open_at_the_end() -> None:
    game = bot_game("samurai", 3, "end")
    view = game.view(None)
    texts = render_picture(view).texts()
    for name in view["seats"]:
        assert f"Behind {name}'s screen" in texts
    assert "Game over" in " ".join(texts)


def test_same_view_gives_the_same_bytes() -> None:
    view = play_view(1)
    assert render_png(view) == render_png(copy.deepcopy(view))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finished_bot_game_renders_for_every_seat(players: int) -> None:
    game = bot_game("samurai", players, "end")
    for seat in [None, *range(players)]:
        view = game.view(seat)
        started = time.process_time()
        png = render_png(view)
        assert time.process_time() - started < 1.0
        assert 1000 <= image(png).width <= 1600
    check_every_piece(game.view(None))


LABELS = {
    "helmet4": "H4",
    "rice2": "R2",
    "buddha3": "B3",
    "samurai1": "S1",
    "ronin": "Ro",
    "ship2": "Sh2",
    "token-exchange": "TX",
    "figure-exchange": "FX",
}


@pytest.mark.parametrize(("code", "label"), LABELS.items())
def test_tile_labels_follow_the_notation_picture(code: str, label: str) -> None:
    assert samurai.tile_label(code) == label


def test_a_previewed_turn_end_shows_tiles_from_the_pile_unknown() -> None:
    game = cut(bot_game("samurai", 3, "render"), 70).copy()
    seat = game.state.current
    first = game.state.format_move(game.state.legal_moves(seat)[0])
    view = game.trial(seat, [first, "end"]).view()
    texts = render_picture(view).texts()
    assert "?" in texts
    assert any(t.startswith("pile holds: ") and "not known before the draw" in t for t in texts)


@pytest.mark.parametrize(
    ("language", "exchanges"),
    [
        ("en", ["TX token exchange", "FX figure exchange"]),
        ("fr", ["TX mouvement", "FX échange"]),
        ("cs", ["TX přesun", "FX výměna"]),
    ],
)
def test_the_legend_names_every_symbol_a_tile_shows(language, exchanges):
    """The figure exchange is never on the board, but it shows behind a screen."""
    texts = render_picture(play_view(0), language=language).texts()
    start = next(i for i, t in enumerate(texts) if t.startswith("H "))
    legend = " ".join(" ".join(texts[start:]).split())
    assert all(f"{symbol} " in legend for symbol in samurai.SYMBOLS.values())
    assert all(exchange in legend for exchange in exchanges)
