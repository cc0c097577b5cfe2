"""One move, applied once: 50 clients racing to send the same Java turn
through the API, or the same form through the pages, store one submission
and apply it once; the others are refused at once (API: 409) or led to the
first one (pages: a no-op)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import func, select

from pbem.models import Move, Submission
from pbem.services import accounts
from tests.server.conftest import drain
from tests.server.pipeline_helpers import java_ann_first

CLIENTS = 50


def stored_and_applied(session, game) -> tuple[int, int]:
    session.expire_all()
    stored = session.scalar(select(func.count()).where(Submission.game_id == game.id))
    applied = session.scalar(select(func.count()).where(Move.game_id == game.id))
    return stored, applied


def race(send) -> list[int]:
    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(send, range(CLIENTS)))


def test_racing_api_clients_store_one_turn(postgres_only, session, make_user):
    app = postgres_only
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    token = accounts.issue_api_token(session, ann, "race")
    session.commit()
    url = f"/api/v1/games/{game.public_id}/seats/1/moves"

    def send(_client: int) -> int:
        headers = {"Authorization": f"Bearer {token}"}
        return (
            app.test_client()
            .post(url, json={"moves": ["draw deck"], "ply": 0}, headers=headers)
            .status_code
        )

    codes = race(send)
    drain(app)
    # Each client says which position it chose at (ply 0), so a request that
    # arrives after the first was applied is stale, not a second turn.
    assert codes.count(202) == 1 and codes.count(409) == CLIENTS - 1, codes
    assert stored_and_applied(session, game) == (1, 1)


def test_racing_form_posts_store_one_turn(postgres_only, session, make_user, signed_in_as):
    app = postgres_only
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    form = {"csrf_token": browser.token, "moves": "draw deck", "ply": "0"}

    def send(_client: int) -> int:
        response = browser.client.post(f"/games/{game.public_id}/submit", data=form)
        return response.status_code

    codes = race(send)
    drain(app)
    assert codes == [302] * CLIENTS, codes  # every post leads to the one submission
    assert stored_and_applied(session, game) == (1, 1)
