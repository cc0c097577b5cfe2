"""Chromium builds whole turns by clicks alone, never typing in the move
entry: a Java turn of four actions (the AP left going down, a line undone),
a Taluva eruption and its build picked on the board, a Samurai tile picked in
hand and placed on a space, Samurai's opening ticked as check boxes. The
server applies what was built."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.db import get_db
from pbem.models import Game, Seat, Submission, SubmissionStatus, User
from pbem.services.replay import engine_game
from tests.server.live_browser import (
    MOVE_TIMEOUT_MS,
    OPEN_ITS_GROUPS,
    answered,
    entry_lines,
    pick_on_board,
    play_on,
    player,
)
from tests.server.pipeline_helpers import java_ann_first, start_game

pytestmark = pytest.mark.parametrize("app", ["sqlite"], indirect=True)


def click_move(page, move: str) -> None:
    """A move of the list: one of one word stands apart (end), others in groups."""
    button = page.locator("#lone-moves, #legal-moves").locator(f'button.move[data-move="{move}"]')
    button.evaluate(OPEN_ITS_GROUPS)
    button.click()
    answered(page)


def points_left(page) -> int:
    return int(page.locator("#points-left").inner_text().split()[0])


def submit_and_check(app, page, game_id: int, seat: int, lines: list[str]) -> None:
    """Send the built turn; the worker applies exactly its lines (the seat's
    last submission: the API made the earlier ones)."""
    with page.expect_navigation():
        page.locator("#submit-button").click()
    page.locator("#submission-status[data-status=accepted]").wait_for(timeout=MOVE_TIMEOUT_MS)
    with app.app_context(), get_db().session() as session:
        game = session.get(Game, game_id)
        submission = session.scalar(
            select(Submission)
            .join(Seat, Seat.id == Submission.seat_id)
            .where(Submission.game_id == game_id, Seat.position == seat)
            .order_by(Submission.id.desc())
            .limit(1)
        )
        assert submission.status == SubmissionStatus.ACCEPTED
        assert submission.raw_text.splitlines() == lines
        applied = [m.text for m in game.moves if m.submission_id == submission.id]
        assert applied == lines


def test_a_java_turn_of_four_actions_is_built_by_clicks(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Jo")
    with app.app_context(), get_db().session() as session:
        game = java_ann_first(app, session, session.get(User, user_id))
        game_id, public_id = game.id, game.public_id
    page.goto(f"{base}/games/{public_id}")
    assert points_left(page) == 6
    built: list[str] = []
    for _ in range(4):
        before = points_left(page)
        move = pick_on_board(page, lambda move, cost: cost == 1)
        built.append(move)
        assert entry_lines(page) == built  # added as a line, not put instead
        assert points_left(page) == before - 1
    page.locator("#undo-line").click()
    answered(page)
    assert entry_lines(page) == built[:-1] and points_left(page) == 3
    assert pick_on_board(page, lambda move, cost: move == built[-1]) == built[-1]
    assert entry_lines(page) == built and points_left(page) == 2
    submit_and_check(app, page, game_id, 1, built)
    page.context.close()


def test_a_taluva_eruption_and_a_build_are_picked_on_the_board(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Tess")
    with app.app_context(), get_db().session() as session:
        game = start_game(app, session, "taluva", [session.get(User, user_id), "bot"])
        game_id, public_id = game.id, game.public_id
    eruption = None
    for _ in range(12):  # both seats play until a volcano can be covered
        play_on(app, game_id, 0, 1)
        eruption = _eruption(app, game_id)
        if eruption:
            break
    assert eruption, "no eruption came within 12 turns"
    page.goto(f"{base}/games/{public_id}")
    for space in eruption.split()[1:]:  # the volcano, then the left and right terrains
        page.locator(f'#board [data-space="{space}"]').click()
    answered(page)
    assert entry_lines(page) == [eruption]
    build = page.locator("#legal-moves button.move").first.get_attribute("data-move")
    assert not build.startswith("tile")  # what follows a tile: its build
    click_move(page, build)
    assert entry_lines(page) == [eruption, build]
    assert page.locator("#legal-moves button.move").count() == 0
    submit_and_check(app, page, game_id, 0, [eruption, build])
    page.context.close()


def test_a_taluva_tile_is_laid_on_open_ground_by_clicks(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Tom")
    with app.app_context(), get_db().session() as session:
        game = start_game(app, session, "taluva", [session.get(User, user_id), "bot"])
        game_id, public_id = game.id, game.public_id
        state = engine_game(game).state
        tile = state.format_move(state.legal_moves(0)[-1])  # no island yet: all open ground
    page.goto(f"{base}/games/{public_id}")
    for space in tile.split()[1:]:  # the volcano, then the left and right terrains
        page.locator(f'#board [data-space="{space}"]').click()
    answered(page)
    assert entry_lines(page) == [tile]
    build = page.locator("#legal-moves button.move").first.get_attribute("data-move")
    click_move(page, build)
    submit_and_check(app, page, game_id, 0, [tile, build])
    page.context.close()


def _eruption(app, game_id: int) -> str | None:
    """A legal tile over a volcano whose spaces, clicked in order, pick it alone."""
    with app.app_context(), get_db().session() as session:
        state = engine_game(session.get(Game, game_id)).state
    on_board = {cell["space"] for cell in state.seat_view(0)["board"]}
    tiles = [state.format_move(m) for m in state.legal_moves(0)]
    for text in tiles:
        volcano, left, right = text.split()[1:]
        if {volcano, left, right} <= on_board:
            after_volcano = [t for t in tiles if volcano in t.split()]
            if len(after_volcano) > 1:
                return text
    return None


def test_a_samurai_tile_is_picked_in_hand_and_placed_on_the_board(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Sam")
    with app.app_context(), get_db().session() as session:
        game = start_game(app, session, "samurai", [session.get(User, user_id), "bot"])
        game_id, public_id = game.id, game.public_id

    def playing() -> bool:
        with app.app_context(), get_db().session() as session:
            return engine_game(session.get(Game, game_id)).state.phase == "play"

    while not playing():  # the opening choice and the figures, made through the API
        play_on(app, game_id, 0, 1)
    page.goto(f"{base}/games/{public_id}")
    tile = page.locator(".board-panel [data-tile].pickable").first
    code = tile.get_attribute("data-tile")
    tile.click()
    shown = page.locator("#picked-moves button.move")  # the moves with that tile
    assert shown.count() > 1
    assert all(m.split()[0] == code for m in shown.evaluate_all("b => b.map(x => x.dataset.move)"))
    target = page.locator("#board [data-space].reachable").first
    space = target.get_attribute("data-space")
    target.click()
    answered(page)
    placed = f"{code} {space}"
    assert entry_lines(page) == [placed]
    click_move(page, "end")
    assert entry_lines(page) == [placed, "end"]
    submit_and_check(app, page, game_id, 0, [placed, "end"])
    page.context.close()


def test_the_samurai_opening_is_picked_with_check_boxes(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Sue")
    with app.app_context(), get_db().session() as session:
        game = start_game(app, session, "samurai", [session.get(User, user_id), "bot"])
        game_id, public_id = game.id, game.public_id
    page.goto(f"{base}/games/{public_id}")
    wanted = int(page.locator("fieldset[data-pick-count]").get_attribute("data-pick-count"))
    boxes = page.locator("#pick-form input[name=pick]")
    assert boxes.count() > wanted
    picked = []
    for index in range(wanted):
        boxes.nth(index).check()
        picked.append(boxes.nth(index).get_attribute("value"))
    assert boxes.nth(wanted).is_disabled()  # no more than the rules' count
    with page.expect_navigation():
        page.locator("#pick-submit-button").click()
    page.locator("#submission-status[data-status=accepted]").wait_for(timeout=MOVE_TIMEOUT_MS)
    with app.app_context(), get_db().session() as session:
        submission = session.scalar(
            select(Submission)
            .join(Seat, Seat.id == Submission.seat_id)
            .where(Submission.game_id == game_id, Seat.position == 0)
            .order_by(Submission.id.desc())
            .limit(1)
        )
        assert submission.status == SubmissionStatus.ACCEPTED
        head, *ticked = submission.raw_text.split()
        assert head == "choose" and sorted(ticked) == sorted(picked)
    page.context.close()
