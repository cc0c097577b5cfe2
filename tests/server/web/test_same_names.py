"""Two players at one table whose names look the same (the same letters, case
or invisible characters aside) are told apart by their player numbers, on the
game page in the reader's language and in the API's seat list."""

from __future__ import annotations

import pytest

from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game


@pytest.fixture
def two_anns(session, make_user):
    ann, other, bob = make_user("Ann"), make_user("ANN\u200b"), make_user("Bob")
    seats = [SeatSpec(user=ann), SeatSpec(user=other), SeatSpec(user=bob)]
    game = create_game(session, ann, "taluva", seats)
    session.commit()
    return game, ann, other, bob


@pytest.mark.parametrize(
    ("language", "suffix"),
    [("en", "(player no. {})"), ("fr", "(joueur nº {})"), ("cs", "(hráč č. {})")],
)
def test_the_game_page_tells_two_anns_apart(signed_in_as, two_anns, language, suffix):
    game, ann, other, bob = two_anns
    page = signed_in_as(bob).get(f"/games/{game.public_id}", headers={"Accept-Language": language})
    text = page.get_data(as_text=True)
    assert f"Ann {suffix.format(ann.id)}" in text
    assert f"ANN\u200b {suffix.format(other.id)}" in text
    assert suffix.format(bob.id) not in text  # a name nobody else has stays as it is


def test_the_api_seat_list_tells_two_anns_apart(app, session, two_anns):
    game, ann, other, bob = two_anns
    token = accounts.issue_api_token(session, bob, "tests")
    session.commit()
    seats = (
        app.test_client()
        .get(f"/api/v1/games/{game.public_id}", headers={"Authorization": f"Bearer {token}"})
        .get_json()["seats"]
    )
    assert [(s["name"], s["shown_name"], s["player"]) for s in seats] == [
        ("Ann", f"Ann (player no. {ann.id})", ann.id),
        ("ANN\u200b", f"ANN\u200b (player no. {other.id})", other.id),
        ("Bob", "Bob", bob.id),
    ]
