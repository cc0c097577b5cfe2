"""Steps of the tests where a real Chromium uses the live server (the `live`
and `chromium` fixtures of tests/server/conftest.py): signing in through the
pages, waiting for the turn builder, building a move by clicks, and a human
seat played on from the side (the pages then show a game in the middle)."""

from __future__ import annotations

import uuid

from flask import Flask
from sqlalchemy import select

from pbem.db import get_db
from pbem.models import Game, Outbox, SubmissionStatus, User
from pbem.services.bots import bot_turn
from pbem.services.replay import engine_game
from pbem.services.submissions import submit
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import judged

MOVE_TIMEOUT_MS = 30_000
# The legal moves come in closed groups: a player opens the ones around a move.
OPEN_ITS_GROUPS = (
    "b => { for (let d = b.closest('details'); d; d = d.parentElement.closest('details'))"
    " d.open = true; }"
)


def sign_in(app: Flask, base: str, page, email: str, name: str, zone: str = "UTC") -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign in with your e-mail address").click()
    page.get_by_label("E-mail address").fill(email)
    page.get_by_role("button", name="Send me a sign-in link").click()
    page.get_by_text("Check your mail").wait_for()
    with app.app_context(), get_db().session() as session:
        link = session.scalar(
            select(Outbox.payload)
            .join(User, User.id == Outbox.recipient_id)
            .where(User.email == email, Outbox.kind == "sign_in")
        )["link"]
    page.goto(link)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Name", exact=True).fill(name)
    assert page.get_by_label("Time zone").input_value() == zone  # the browser's, preselected
    page.get_by_role("button", name="Save").click()
    page.get_by_role("heading", name="My games").wait_for()


def player(app, chromium, base, name):
    """A signed-in page and its user's id."""
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    email = f"{name.lower()}-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, name)
    with app.app_context(), get_db().session() as session:
        user_id = session.scalar(select(User.id).where(User.email == email))
    return page, user_id


def play_on(app: Flask, game_id: int, position: int, turns: int) -> None:
    """Move a human seat like a bot would, for `turns` of its turns (the
    screenshots want a game in the middle)."""
    with app.app_context(), get_db().session() as session:

        def my_turn() -> bool:
            session.expire_all()
            return position in session.get(Game, game_id).to_act

        for _ in range(turns):
            wait_for(my_turn, what="the human seat's turn")
            game = session.get(Game, game_id)
            text = "\n".join(bot_turn(engine_game(game), position, "random"))
            submission = submit(session, game.seats[position], text, channel="web")
            session.commit()
            assert judged(app, submission.id).status == SubmissionStatus.ACCEPTED
        wait_for(my_turn, what="the bots to answer")


def answered(page) -> None:
    """The server has said what may follow the lines now in the entry."""
    page.locator("#turn-builder:not([aria-busy])").wait_for(timeout=MOVE_TIMEOUT_MS)


def pick_on_board(page, wanted, language: str = "en") -> str:
    """Click a space of the first legal move `wanted(move, cost)` accepts (the
    page may only link to its group), then that move among those left, as
    the page says it in `language`."""
    legal = page.evaluate("JSON.parse(document.getElementById('legal-data').textContent)")
    board = set(
        page.eval_on_selector_all("#board [data-space]", "gs => gs.map(g => g.dataset.space)")
    )
    costs = dict(zip(legal["moves"], legal["costs"] or [None] * len(legal["moves"]), strict=True))
    move, space = next(
        (move, word)
        for move in legal["moves"]
        if wanted(move, costs[move]) and not move.startswith("draw")
        for word in move.split()
        if word in board
    )
    said = " ".join(legal["said"].get(word, word) for word in move.split(" "))
    before = entry_lines(page)
    page.locator(f'#board [data-space="{space}"]').click()
    if entry_lines(page) == before:  # several moves name the space: ours from those
        page.locator(f'#picked-moves button.move[data-move="{said}"]').click()
    answered(page)
    return move


def entry_lines(page) -> list[str]:
    return page.locator("#moves").input_value().splitlines()
