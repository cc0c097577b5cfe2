"""A NUL character in an id, a query or a text is refused at the door (404 or
422), on both databases, signed in or not: PostgreSQL's text cannot hold one,
and it used to fail there with a 500."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from pbem.leagues.leagues import create_league
from pbem.models import ChatMessage
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game

PAGES = [
    "/games/%00",
    "/games/%00/watch",
    "/games/%00/board.png",
    "/games/%00/record.json",
    "/games/%00/follow",
    "/games/%00/version",
    "/leagues/%00",
    "/leagues/%00/seasons/1/standings.csv",
    "/calendar/%00.ics",
    "/join/%00",
    "/sign-in/%00",
]
API = [
    "/api/v1/games/%00",
    "/api/v1/games/%00/events",
    "/api/v1/games/%00/record",
    "/api/v1/games/%00/seats/0/view",
    "/api/v1/leagues/%00",
    "/api/v1/leagues/%00/standings",
]


@pytest.fixture
def ann_at_a_table(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
    league = create_league(session, ann, "Club", "taluva", 2)
    session.commit()
    return ann, game, league


@pytest.mark.parametrize("url", PAGES)
def test_a_page_whose_id_holds_nul_is_not_found(browser, signed_in_as, ann_at_a_table, url):
    assert browser.get(url).status_code in (302, 404)  # signed out: sign in first, or not found
    assert signed_in_as(ann_at_a_table[0]).get(url).status_code == 404


@pytest.mark.parametrize("url", API)
def test_an_api_id_holding_nul_is_not_found(app, session, ann_at_a_table, url):
    token = accounts.issue_api_token(session, ann_at_a_table[0], "tests")
    session.commit()
    answer = app.test_client().get(url, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 404
    assert answer.is_json


def test_api_writes_with_nul_are_refused_and_keep_nothing(app, session, ann_at_a_table):
    ann, game, _ = ann_at_a_table
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    client, auth = app.test_client(), {"Authorization": f"Bearer {token}"}
    assert client.post("/api/v1/games/%00/join", json={}, headers=auth).status_code == 404
    assert client.post("/api/v1/leagues/%00/join", json={}, headers=auth).status_code == 404
    chat = client.post(
        f"/api/v1/games/{game.public_id}/chat", json={"text": "hi\u0000there"}, headers=auth
    )
    assert chat.status_code == 422
    assert "NUL" in chat.get_json()["message"]
    renamed = client.patch("/api/v1/settings", json={"name": "A\u0000nn"}, headers=auth)
    assert renamed.status_code == 422
    assert client.get("/api/v1/games?status=%00", headers=auth).status_code == 422
    kept = select(func.count()).where(ChatMessage.game_id == game.id)
    assert session.scalar(kept) == 0


def test_a_form_with_nul_is_refused_in_the_readers_language(signed_in_as, ann_at_a_table):
    ann, game, _ = ann_at_a_table
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    sent = browser.post(
        f"/games/{game.public_id}/chat",
        {"text": "hi\u0000there"},
        headers={"Accept-Language": "fr"},
    )
    assert sent.status_code == 422
    page = sent.get_data(as_text=True)
    assert "Impossible" in page
    assert "caractère NUL" in page
