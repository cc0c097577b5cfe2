"""The Java picture shows every space's face and height, irrigation, palaces
and developers, and the festival cards only to the seat holding them."""

from __future__ import annotations

import copy
import re
import time
import xml.etree.ElementTree as ET
from typing import Any

from engine import Game
from engine.games.java.board import SPACES
from engine.games.java.cards import KINDS
from pbem.render import java, panel, render_panel_html, render_picture, render_png, space_centres
from pbem.render.colours import JAVA_BOARD, JAVA_FACE, PALACE, PLAYER_COLOURS
from pbem.render.lastturn import last_turn, outlined_turns, spaces_named
from tests.render.helpers import RING, bot_game, close, cut, image, pixel


def mid_game(seat: int | None) -> dict[str, Any]:
    game = bot_game("java", 3, "a")
    return cut(game, len(game.log) * 2 // 3).view(seat)


def with_palaces(view: dict[str, Any]) -> dict[str, Any]:
    """Two palaces added by hand on empty village spaces, one after its festival."""
    view = copy.deepcopy(view)
    state = view["state"]
    villages = [
        sid
        for sid, top in state["spaces"].items()
        if top["face"] == "village" and sid not in state["developers"]
    ]
    state["palaces"][villages[0]] = {"values": [4, 8], "festival": False}
    state["palaces"][villages[1]] = {"values": [6], "festival": True}
    return view


def expected_colour(view: dict[str, Any], sid: str) -> tuple[int, int, int]:
    state = view["state"]
    if sid in state["irrigation"] or SPACES[sid].kind == "irrigation":
        return JAVA_BOARD["irrigation"]
    if sid in state["spaces"]:
        return JAVA_FACE[state["spaces"][sid]["face"]]
    return JAVA_BOARD[SPACES[sid].kind]


def check_every_piece(view: dict[str, Any]) -> None:
    picture = render_picture(view)
    assert picture.centres == space_centres(view)
    size = java.layout(view).size
    state = view["state"]
    texts = picture.texts()
    for sid in SPACES:
        x, y = picture.centres[sid]
        assert sid in texts
        assert close(pixel(picture, x + 0.42 * size, y), expected_colour(view, sid)), sid
    for sid, seat in state["developers"].items():
        x, y = picture.centres[sid]
        assert close(pixel(picture, x, y + 0.24 * size), PLAYER_COLOURS[seat]), sid
    for sid, palace in state["palaces"].items():
        x, y = picture.centres[sid]
        assert close(pixel(picture, x - 0.2 * size, y + 0.22 * size), PALACE), sid
        assert str(palace["values"][-1]) in texts
    levels = {str(top["level"]) for top in state["spaces"].values()}
    assert levels <= set(texts)


def test_every_space_face_height_and_developer_is_drawn() -> None:
    view = mid_game(0)
    assert len(view["state"]["developers"]) >= 5
    assert {top["level"] for top in view["state"]["spaces"].values()} >= {1, 2, 3}
    check_every_piece(view)


def test_palaces_show_their_top_value() -> None:
    view = with_palaces(mid_game(None))
    check_every_piece(view)
    texts = render_picture(view).texts()
    assert "8" in texts and "6" in texts


def test_a_spectator_sees_the_last_turn_outlined_in_the_movers_colour() -> None:
    view = mid_game(None)
    picture = render_picture(view)
    size = java.layout(view).size
    turn = last_turn(view["history"])
    named = spaces_named(turn.moves, SPACES)
    assert named
    for sid, (x, y) in picture.centres.items():
        ring = pixel(picture, x + RING[0] * size, y + RING[1] * size)
        assert close(ring, PLAYER_COLOURS[turn.seat]) == (sid in named), sid


def test_a_player_sees_every_other_players_turn_since_theirs_in_its_colour() -> None:
    game = bot_game("java", 3, "a")
    ply = len(game.log) * 2 // 3
    while {turn.seat for turn in outlined_turns(cut(game, ply).view(0))} != {1, 2}:
        ply += 1
    view = cut(game, ply).view(0)
    turns = outlined_turns(view)
    picture = render_picture(view)
    size = java.layout(view).size
    for index, turn in enumerate(turns):
        later = {s for t in turns[index + 1 :] for s in spaces_named(t.moves, SPACES)}
        own = spaces_named(turn.moves, SPACES) - later
        assert own, turn
        for sid in own:
            x, y = picture.centres[sid]
            ring = pixel(picture, x + RING[0] * size, y + RING[1] * size)
            assert close(ring, PLAYER_COLOURS[turn.seat]), sid


def test_festival_cards_show_only_to_their_holder() -> None:
    for seat in (0, 1, 2):
        view = mid_game(seat)
        picture = render_picture(view)
        left = picture.image.width - panel.WIDTH
        drawn = [lb.text for lb in picture.labels if lb.x >= left]
        start = drawn.index("Your festival cards")
        assert drawn[start + 1 : start + 1 + len(view["state"]["hand"])] == view["state"]["hand"]
    spectator = render_picture(mid_game(None)).texts()
    assert "Your festival cards" not in spectator


def test_a_big_hand_shows_every_card_in_rows_on_the_picture_and_the_page() -> None:
    """A hand wider than the panel wraps: the eighth card and those after it
    are drawn, and on the page each is an item inside its drawing, to click."""
    view = copy.deepcopy(mid_game(0))
    hand = [*KINDS, *KINDS, "M"]  # 13 cards, two rows and a bit
    view["state"]["hand"] = hand

    picture = render_picture(view)
    left = picture.image.width - panel.WIDTH
    drawn = [lb for lb in picture.labels if lb.x >= left]
    start = [lb.text for lb in drawn].index("Your festival cards")
    cards = drawn[start + 1 : start + 1 + len(hand)]
    assert [lb.text for lb in cards] == hand
    assert all(lb.x < picture.image.width - panel.PAD for lb in cards)
    assert len({(lb.x, lb.y) for lb in cards}) == len(hand)  # none drawn over another

    page = str(render_panel_html(view))
    svg = re.search(r'<svg[^>]*aria-label="Your festival cards".*?</svg>', page).group(0)
    drawing = ET.fromstring(svg)
    x, y, width, height = map(float, drawing.get("viewBox").split())
    items = [g for g in drawing if g.get("data-card")]
    assert [g.get("data-card") for g in items] == hand
    for item in items:
        card = item.find("{http://www.w3.org/2000/svg}rect")
        assert (
            x <= float(card.get("x"))
            and float(card.get("x")) + float(card.get("width")) <= x + width
        )
        assert (
            y <= float(card.get("y"))
            and float(card.get("y")) + float(card.get("height")) <= y + height
        )


def test_same_view_gives_the_same_bytes() -> None:
    view = mid_game(2)
    assert render_png(view) == render_png(copy.deepcopy(view))


def test_finished_bot_game_renders_for_every_seat() -> None:
    game = bot_game("java", 3, "a")
    for seat in (None, 0, 1, 2):
        view = game.view(seat)
        started = time.process_time()
        png = render_png(view)
        assert time.process_time() - started < 1.0
        assert 1000 <= image(png).width <= 1600
        assert "Game over" in " ".join(render_picture(view).texts())
    check_every_piece(game.view(None))


def test_festival_auction_shows_totals_and_who_decides() -> None:
    view = with_palaces(mid_game(1))
    palace = next(iter(view["state"]["palaces"]))
    view["state"]["auction"] = {
        "palace": palace,
        "organiser": 0,
        "seats": [0, 1, 2],
        "totals": {"0": 2, "1": 1, "2": 0},
        "still_in": [0, 1],
        "agreed": [],
        "to_decide": 1,
        "cards_played": ["M", "MD"],
    }
    view["to_act"] = [1]
    texts = render_picture(view).texts()
    names = view["seats"]
    assert f"Festival at {palace}" in texts
    assert f"{names[0]}: total 2" in texts and f"{names[2]}: total 0" in texts
    assert f"still in: {names[0]}, {names[1]}" in texts
    assert f"{names[1]} decides" in texts
    assert "cards played: M MD" in texts


def test_a_previewed_draw_shows_a_card_from_the_deck() -> None:
    game = Game.new("java", ["a", "b"], "preview")
    seat = min(game.state.to_act())
    view = game.trial(seat, ["draw deck", "draw faceup"]).view()
    picture = render_picture(view)
    left = picture.image.width - panel.WIDTH
    drawn = [lb.text for lb in picture.labels if lb.x >= left]
    start = drawn.index("Your festival cards")
    hand = [*game.state.hands[seat], "?"]
    assert drawn[start + 1 : start + 1 + len(hand)] == hand
    assert any("a card from the deck" in text for text in drawn)
