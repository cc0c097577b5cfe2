"""A real headless Chromium plays a whole game of Taluva against a bot through
the pages, on a live server with a real Celery worker; it also takes the
README's screenshots of the game page of each game.

Set PBEM_SCREENSHOTS=docs/screenshots to write the screenshots there."""

from __future__ import annotations

import os
import random
import re
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.db import get_db
from pbem.models import Game, GameStatus, Submission, SubmissionStatus, User
from pbem.services.pictures import board_spaces
from pbem.services.replay import engine_game, verify_game
from tests.server.conftest import wait_for
from tests.server.live_browser import (
    MOVE_TIMEOUT_MS,
    OPEN_ITS_GROUPS,
    answered,
    entry_lines,
    pick_on_board,
    play_on,
    sign_in,
)
from tests.server.pipeline_helpers import java_ann_first, start_game

# One database is enough for the browser; the page tests cover both.
pytestmark = pytest.mark.parametrize("app", ["sqlite"], indirect=True)


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("PBEM_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_newcomer_plays_taluva_against_a_bot_to_the_end(live, chromium, screenshots):
    app, base = live
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, timezone_id="America/Lima"
    )
    page = context.new_page()
    email = f"tess-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, "Tess", zone="America/Lima")
    with app.app_context(), get_db().session() as session:
        assert session.scalar(select(User.time_zone).where(User.email == email)) == "America/Lima"
    page.get_by_role("link", name="Start a new game").click()
    page.get_by_role("link", name="Taluva").click()
    page.get_by_role("button", name="Start the game").click()
    game_url = page.url
    choose = random.Random("browser-test")
    submitted = 0
    while True:
        page.locator("#legal-moves button.move, .notice.done").first.wait_for(
            state="attached", timeout=MOVE_TIMEOUT_MS
        )
        if page.locator(".notice.done").count():
            break
        # A page the poll reloaded may show its moves before its script
        # runs; a click then would do nothing.
        answered(page)
        assert not page.locator("[data-status=rejected], #move-error").count(), page.content()
        buttons = page.locator("#legal-moves button.move")
        button = buttons.nth(choose.randrange(buttons.count()))
        button.evaluate(OPEN_ITS_GROUPS)
        button.click()
        assert page.locator("#moves").input_value()
        if submitted == 6:
            page.evaluate("window.scrollTo(0, 0)")  # a click in the list scrolled down
            page.screenshot(path=screenshots / "taluva.png")
        with page.expect_navigation():
            page.locator("#submit-button").click()
        submitted += 1
        assert submitted < 200, "the game should have ended"
    assert "Game over: " in page.locator(".notice.done").inner_text()
    with app.app_context(), get_db().session() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_url.rsplit("/", 1)[1]))
        assert game.status == GameStatus.FINISHED
        assert verify_game(game) == []
        web = [m for m in game.moves if m.channel == "web"]
        assert len(web) == submitted  # one move per submission, each applied once
        statuses = session.scalars(select(Submission.status).where(Submission.game_id == game.id))
        assert set(statuses) == {SubmissionStatus.ACCEPTED}
    phone = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    phone.add_cookies(context.cookies())
    phone_page = phone.new_page()
    phone_page.goto(game_url)
    phone_page.screenshot(path=screenshots / "taluva-phone.png", full_page=False)
    phone.close()
    context.close()


@pytest.mark.parametrize(("ruleset", "players", "turns"), [("java", 3, 5), ("samurai", 3, 14)])
def test_screenshot_of_a_game_in_the_middle(live, chromium, screenshots, ruleset, players, turns):
    """The README's picture of a game under way shows what it should: the
    board with every space, the seat's legal moves, the side panel naming
    every seat, the history up to now; no script error, nothing wider than
    the window."""
    app, base = live
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    email = f"{ruleset}-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, "Sam" if ruleset == "samurai" else "Jo")
    with app.app_context(), get_db().session() as session:
        user = session.scalar(select(User).where(User.email == email))
        game = start_game(app, session, ruleset, [user] + ["bot"] * (players - 1))
        game_id, public_id = game.id, game.public_id
    play_on(app, game_id, 0, turns)
    with app.app_context(), get_db().session() as session:
        game = session.get_one(Game, game_id)
        names = [seat.name for seat in game.seats]
        plies = len(game.moves)
        played = engine_game(game)
        spaces = set(board_spaces(played.view(0)))
        state = played.state
        legal = [state.format_move(move) for move in state.legal_moves(0)]
    page.goto(f"{base}/games/{public_id}")
    buttons = page.locator("#legal-moves button.move")
    buttons.first.wait_for(state="attached", timeout=MOVE_TIMEOUT_MS)
    page.screenshot(path=screenshots / f"{ruleset}.png")

    assert page.locator("#board svg").is_visible()
    drawn = page.eval_on_selector_all("#board [data-space]", "gs => gs.map(g => g.dataset.space)")
    assert set(drawn) == spaces and len(drawn) == len(spaces)
    assert page.get_by_role("heading", name="Your move").is_visible()
    offered = page.evaluate("JSON.parse(document.getElementById('legal-data').textContent)")
    assert offered["moves"] == legal
    listed = buttons.evaluate_all("bs => bs.map(b => b.dataset.move)")
    assert listed and set(listed) <= set(legal)
    panel = page.locator(".board-panel")
    assert panel.is_visible() and all(name in panel.inner_text() for name in names)
    assert page.locator(".history-nav .ply").inner_text() == f"move {plies} of {plies}"
    assert plies > turns  # the bots have moved too: a game in the middle
    assert errors == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    context.close()


def test_the_board_fits_a_phone_and_its_spaces_can_be_found(live, chromium):
    """At 390 x 844 the SVG board is as wide as the page, not wider; each space
    is an element found by its data-space and by its accessible name; the zoom
    buttons make it wider than its frame, which then scrolls."""
    app, base = live
    with app.app_context(), get_db().session() as session:
        game = start_game(app, session, "java", ["bot", "bot"])
        game_id, public_id = game.id, game.public_id

    def moved() -> bool:
        with app.app_context(), get_db().session() as session:
            return bool(session.get_one(Game, game_id).moves)

    wait_for(moved, what="a bot move")
    phone = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = phone.new_page()
    # A past position: the page does not reload itself when the bots move on.
    page.goto(f"{base}/games/{public_id}/watch?ply=0")
    board = page.locator("#board svg")
    box = board.bounding_box()
    assert box is not None and 300 < box["width"] <= 390 and box["x"] >= 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    space = page.locator('[data-space="A1"]')
    assert space.count() == 1 and space.is_visible()
    assert page.get_by_role("img", name=re.compile(r"^A1: ")).count() == 1
    frame = page.locator("#board")
    page.get_by_role("button", name="Zoom in").click()
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth * 1.4")
    page.get_by_role("button", name="Zoom out").click()
    assert frame.evaluate("f => f.scrollWidth <= f.clientWidth + 1")
    phone.close()


@pytest.mark.parametrize(
    ("language", "locale", "heading"),
    [("fr", "fr-FR", "Votre coup"), ("cs", "cs-CZ", "Váš tah")],
)
def test_screenshot_of_the_game_page_in_each_language(
    live, chromium, screenshots, language, locale, heading
):
    """A player who never chose a language gets the game page in their
    browser's, board and text board included."""
    app, base = live
    english = chromium.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    email = f"{language}-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, english.new_page(), email, "Zoé" if language == "fr" else "Zdeněk")
    with app.app_context(), get_db().session() as session:
        user = session.scalar(select(User).where(User.email == email))
        user.language = None  # the welcome page saved the English browser's
        session.commit()
        game = start_game(app, session, "taluva", [user, "bot"])
        game_id, public_id = game.id, game.public_id
    play_on(app, game_id, 0, 4)
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, timezone_id="UTC", locale=locale
    )
    context.add_cookies(english.cookies())
    page = context.new_page()
    page.goto(f"{base}/games/{public_id}")
    page.locator("#legal-moves button.move").first.wait_for(
        state="attached", timeout=MOVE_TIMEOUT_MS
    )
    assert page.locator("html").get_attribute("lang") == language
    page.get_by_role("heading", name=heading).wait_for()
    page.screenshot(path=screenshots / f"taluva-{language}.png")
    context.close()
    english.close()


def test_the_move_filter_and_the_history_slider(live, chromium):
    """Typing in the filter keeps the moves (and their groups) naming it;
    moving the slider goes to that move."""
    app, base = live
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    page = context.new_page()
    email = f"slider-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, "Sol")
    with app.app_context(), get_db().session() as session:
        user = session.scalar(select(User).where(User.email == email))
        game = start_game(app, session, "taluva", [user, "bot"])
        game_id, public_id = game.id, game.public_id
    play_on(app, game_id, 0, 2)
    page.goto(f"{base}/games/{public_id}")
    moves = page.locator("#legal-moves button.move")
    space = moves.first.get_attribute("data-move").split()[1]
    page.locator("input[data-filter=legal-moves]").fill(space)
    shown = [
        m
        for m in moves.evaluate_all("bs => bs.filter(b => b.offsetParent).map(b => b.dataset.move)")
    ]
    assert shown and all(space in move.split() for move in shown)
    page.locator("#history-ply").fill("2")
    page.locator("#history-ply").dispatch_event("change")
    page.wait_for_url(f"**/games/{public_id}?ply=2")
    page.get_by_text("move 2 of").wait_for()
    context.close()


def test_a_czech_turn_built_by_clicks_is_written_in_czech(live, chromium):
    """The turn builder writes the move a click on the board picks in the
    page's words, keeps `end` in sight beside the groups, and the turn so
    written is played and shown in Czech."""
    app, base = live
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    page = context.new_page()
    email = f"czech-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, "Zdeněk")
    with app.app_context(), get_db().session() as session:
        user = session.scalar(select(User).where(User.email == email))
        user.language = "cs"
        session.commit()
        game = java_ann_first(app, session, user)
        public_id, state = game.public_id, engine_game(game).state
    page.goto(f"{base}/games/{public_id}")
    answered(page)
    move = pick_on_board(page, lambda move, cost: move.startswith("triple "), "cs")
    said = state.said_move(move, "cs")
    assert said.startswith("trojdílné ") and entry_lines(page) == [said]
    assert page.locator("#builder-error").is_hidden()
    page.locator('#lone-moves button.move[data-move="konec"]').click()
    answered(page)
    assert entry_lines(page) == [said, "konec"]
    page.locator("#submit-button").click()
    log = page.locator("details.log")  # the history, closed
    log.get_by_text(f"Zdeněk: {said}").wait_for(state="attached", timeout=MOVE_TIMEOUT_MS)
    log.get_by_text("Zdeněk: konec").wait_for(state="attached")
    context.close()
