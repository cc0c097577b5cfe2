"""The game page draws the board as inline SVG from the viewer's own view (a
spectator's on the watch page), with the panel as HTML and the PNG a link away."""

from __future__ import annotations

import re

import pytest

from pbem.render import space_centres
from pbem.services.replay import engine_game
from tests.server.pipeline_helpers import judged, send, start_game

SEAT_MARK = re.compile(r'data-seat="(\d+)"')
# Samurai's hands are dealt once every seat has chosen its opening tiles.
OPENING = "choose helmet4 buddha4 rice4 samurai3 ronin"


@pytest.mark.parametrize("ruleset", ["taluva", "samurai", "java"])
def test_each_seat_page_shows_its_own_hand_and_no_other(
    app, session, make_user, signed_in_as, ruleset
):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, ruleset, [ann, bob])
    if ruleset == "samurai":
        for seat in (0, 1):
            judged(app, send(app, session, game, seat, OPENING).id)
    pages = {
        seat: signed_in_as(user).get(f"/games/{game.public_id}").get_data(as_text=True)
        for seat, user in ((0, ann), (1, bob))
    }
    watch = signed_in_as(make_user("Eve")).get(f"/games/{game.public_id}/watch")
    marks = {seat: set(SEAT_MARK.findall(page)) for seat, page in pages.items()}
    assert marks[0] <= {"0"} and marks[1] <= {"1"} and marks[0] | marks[1]
    assert SEAT_MARK.findall(watch.get_data(as_text=True)) == []


def test_the_page_has_every_space_the_panel_and_the_png_link(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = start_game(app, session, "java", [ann, "bot"])
    page = signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True)
    board = page.split('<div class="board-frame" id="board">', 1)[1].split("</svg>", 1)[0]
    assert board.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox=')
    view = engine_game(game).view(0)
    assert set(re.findall(r'data-space="([^"]+)"', board)) == set(space_centres(view))
    assert '<section class="board-panel">' in page and "Your festival cards" in page
    # The bot may have moved by now: the link names whatever move the page shows.
    link = rf'href="/games/{game.public_id}/board.png\?seat=0&amp;ply=\d+" id="board-png"'
    assert re.search(link, page)


def test_a_french_readers_board_and_panel_are_in_french(app, session, make_user, signed_in_as):
    """The inline board and its panel speak the page's language, as the PNG
    does: the seat line, and a terrain in a space's accessible name."""
    amelie = make_user("Amélie")
    amelie.language = "fr"
    session.commit()
    game = start_game(app, session, "taluva", [amelie, "bot"])
    state = engine_game(game).state
    judged(app, send(app, session, game, 0, state.format_move(state.legal_moves(0)[0])).id)
    page = signed_in_as(amelie).get(f"/games/{game.public_id}").get_data(as_text=True)
    board = page.split('<div class="board-frame" id="board">', 1)[1].split("</svg>", 1)[0]
    panel = page.split('<section class="board-panel">', 1)[1].split("</section>", 1)[0]
    assert re.search(r'aria-label="0,0\s?: volcan, niveau 1"', board)
    assert "<strong>Amélie  (vous) ◀ à jouer</strong>" in panel
    assert "<h3>Joueurs</h3>" in panel and "<h3>Dernier tour</h3>" in panel
    for english in ("volcano", "level", "Players", "view of", "to act", "(you)"):
        assert english not in board + panel, english
