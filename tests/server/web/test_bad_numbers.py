"""Every route that takes a number: a number that is no number (`²`, `-1`,
`1e3`) or too big for the database answers 404 (400 for a form), never 500."""

from __future__ import annotations

import pytest

from pbem.services import accounts
from tests.server.openapi_client import OpenApiClient
from tests.server.pipeline_helpers import start_game

BAD = ("²", "-1", "1e3", "٣", "99999999999999999999", "2147483648")


@pytest.fixture
def ann_game(app, session, make_user):
    ann = make_user("Ann")
    return ann, start_game(app, session, "taluva", [ann, "bot"])


@pytest.mark.parametrize("bad", BAD)
def test_pages_answer_404_to_bad_numbers_in_the_url(ann_game, signed_in_as, bad):
    ann, game = ann_game
    browser = signed_in_as(ann)
    base = f"/games/{game.public_id}"
    for url in (
        f"{base}?ply={bad}",
        f"{base}?submission={bad}",
        f"{base}/watch?ply={bad}",
        f"{base}/board.png?ply={bad}",
        f"{base}/board.png?seat={bad}",
        f"{base}/board.png?seat=0&ply={bad}",
    ):
        assert browser.get(url).status_code == 404, url


@pytest.mark.parametrize("bad", BAD)
def test_forms_answer_400_to_a_bad_ply(ann_game, signed_in_as, bad):
    ann, game = ann_game
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    for action in ("preview", "submit"):
        response = browser.post(f"/games/{game.public_id}/{action}", {"moves": "x", "ply": bad})
        assert response.status_code == 400, (action, response.get_data(as_text=True))
        assert "the form lacks the position it was made for" in response.get_data(as_text=True)


@pytest.mark.parametrize("bad", ["99999999999999999999", "2147483648", "²", "-1"])
def test_api_paths_answer_404_to_bad_numbers(app, session, ann_game, bad):
    ann, game = ann_game
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    api = OpenApiClient(app.test_client())
    seat = {"game_id": game.public_id}
    for operation, params in (
        ("getSeatView", {"position": bad}),
        ("getLegalMoves", {"position": bad}),
        ("getSubmission", {"position": 0, "submission_id": bad}),
        ("getSubmission", {"position": bad, "submission_id": 1}),
    ):
        answer = api.call(operation, token, **seat, **params)
        assert answer.status_code == 404, (operation, params, answer.get_data(as_text=True))
    sent = api.call("submitMoves", token, {"moves": ["x"]}, **seat, position=bad)
    assert sent.status_code == 404
    if bad.isascii() and bad.isdigit():
        join = api.call("joinGame", token, {"position": int(bad)}, **seat)
        assert join.status_code == 422  # beyond any seat number the body may hold
