"""Game lists at scale, without timing: "my games", profiles and the API's
list run as many SQL statements for a page of 50 games as for a page of 5,
and their pages lead to the end of a 1,000-game list and stop there."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from sqlalchemy import event

from pbem.models import (
    Game,
    GameStatus,
    League,
    LeagueOrganiser,
    Rating,
    RatingChange,
    Season,
    Seat,
    User,
)
from pbem.services import accounts
from pbem.services.game_lists import MY_GAMES_PAGE_SIZE

RESULT = {"ranking": [[0], [1]], "scores": [{"points": 1}, {"points": 0}], "reason": "test"}
# Each kind of game a list shows: status, seats to act, and the second seat.
KINDS = (
    (GameStatus.ACTIVE, [0], "bot"),  # the user's turn
    (GameStatus.ACTIVE, [1], "bot"),  # waiting for the bot
    (GameStatus.OPEN, [], "open"),
    (GameStatus.FINISHED, [], "bot"),
)


def give_games(session, user: User, per_kind: int, in_leagues: bool = True) -> list[Game]:
    """`per_kind` games of every kind, each (with `in_leagues`) in a league and
    season of its own with an organiser, so nothing a list shows of a league
    is shared between two games; finished ones rated."""
    rated = Rating(user_id=user.id, ruleset="toy-pick", mu=25.0, sigma=8.0, games=per_kind)
    session.add(rated)
    games = []
    for index in range(per_kind):
        season = None
        if in_leagues:
            league = League(name=f"Club {uuid.uuid4().hex[:8]}", ruleset="toy-pick")
            league.players_per_game = 2
            league.organisers.append(LeagueOrganiser(user_id=user.id))
            season = Season(league=league, number=1, ruleset_version=1, seed="s")
        for number, (status, to_act, other) in enumerate(KINDS, start=1):
            game = Game(
                ruleset="toy-pick",
                ruleset_version=1,
                seed="s",
                status=status,
                to_act=to_act,
                created_by_id=user.id,
                title=f"Game {index}-{number}",
                result=RESULT if status == GameStatus.FINISHED else None,
            )
            if season is not None:
                game.season, game.division, game.round, game.number = season, 1, 1, number
            game.seats = [
                Seat(position=0, colour="red", name=user.name, user_id=user.id),
                Seat(
                    position=1, colour="blue", name="Bot", bot="random" if other == "bot" else None
                ),
            ]
            games.append(game)
    session.add_all(games)
    session.flush()
    session.add_all(
        RatingChange(
            user_id=user.id,
            game_id=game.id,
            ruleset="toy-pick",
            mu_before=25.0,
            sigma_before=8.0,
            mu_after=26.0,
            sigma_after=7.5,
            rating=3.5,
            against_bots=True,
            forfeit=False,
        )
        for game in games
        if game.status == GameStatus.FINISHED
    )
    session.commit()
    return games


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL this thread runs (the worker thread's own work is left out)."""
    engine = app.extensions["pbem.db"].engine
    ours, seen = threading.get_ident(), []

    def count(_connection, _cursor, statement, *_args) -> None:
        if threading.get_ident() == ours:
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def statement_count(app: Flask, client, url: str, headers: dict[str, str] | None = None) -> int:
    client.get(url, headers=headers)  # anything a first request does once
    with statements(app) as seen:
        answer = client.get(url, headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return len(seen)


def bearer(session, user: User) -> dict[str, str]:
    token = accounts.issue_api_token(session, user, "tests")
    session.commit()
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def few_and_many(session, make_user) -> tuple[User, User]:
    """Two players: 5 games of each kind, and 50 (a full page of each section)."""
    few, many = make_user("Few"), make_user("Many")
    give_games(session, few, 5)
    give_games(session, many, 50)
    return few, many


def test_my_games_runs_as_many_statements_for_50_games_as_for_5(app, few_and_many, signed_in_as):
    few, many = few_and_many
    counts = [statement_count(app, signed_in_as(user).client, "/") for user in (few, many)]
    assert counts[0] == counts[1] <= 12, counts
    page = signed_in_as(many).get("/").get_data(as_text=True)
    assert page.count('class="game-link"') == 4 * MY_GAMES_PAGE_SIZE


def test_profiles_run_as_many_statements_for_50_games_as_for_5(
    app, session, make_user, few_and_many, signed_in_as
):
    few, many = few_and_many
    someone = make_user("Someone")
    viewer = signed_in_as(someone)
    pages = [statement_count(app, viewer.client, f"/players/{user.id}") for user in (few, many)]
    assert pages[0] == pages[1], pages
    client, headers = app.test_client(), bearer(session, someone)
    answers = [
        statement_count(app, client, f"/api/v1/players/{user.id}", headers) for user in (few, many)
    ]
    assert answers[0] == answers[1], answers
    history = client.get(f"/api/v1/players/{many.id}", headers=headers).get_json()["ratings"]
    assert len(history[0]["history"]) == 50


def test_the_api_list_runs_as_many_statements_for_50_games_as_for_5(app, session, few_and_many):
    _, many = few_and_many
    client, headers = app.test_client(), bearer(session, many)
    counts = [
        statement_count(app, client, f"/api/v1/games?page_size={size}", headers) for size in (5, 50)
    ]
    assert counts[0] == counts[1], counts
    listed = client.get("/api/v1/games?page_size=50", headers=headers).get_json()
    assert len(listed) == 50
    assert {game["league"]["name"] for game in listed if game["organiser"]} != set()


@pytest.fixture
def thousand(session, make_user) -> tuple[User, list[Game]]:
    """A player with 1,000 finished games (and nothing else of theirs)."""
    user = make_user("Busy")
    games = []
    for index in range(1000):
        game = Game(
            ruleset="toy-pick",
            ruleset_version=1,
            seed="s",
            status=GameStatus.FINISHED,
            created_by_id=user.id,
            title=f"Game {index}",
            result=RESULT,
        )
        game.seats = [
            Seat(position=0, colour="red", name=user.name, user_id=user.id),
            Seat(position=1, colour="blue", name="Bot", bot="random"),
        ]
        games.append(game)
    session.add_all(games)
    session.commit()
    return user, games


def finished_section(page: str) -> str:
    return page[page.index('<h2 id="finished">') :]


def test_my_games_pages_lead_to_the_end_of_1000_games_and_stop(thousand, signed_in_as):
    user, _ = thousand
    browser = signed_in_as(user)
    last = finished_section(browser.get("/?finished=40").get_data(as_text=True))
    assert "page 40 of 40 (1000 games)" in last
    assert "finished=39#finished" in last and "older ›" not in last
    assert last.count('class="game-link"') == MY_GAMES_PAGE_SIZE == 25
    beyond = browser.get("/?finished=99").get_data(as_text=True)
    assert finished_section(beyond) == last  # past the end: the last page
    first = finished_section(browser.get("/").get_data(as_text=True))
    assert "page 1 of 40 (1000 games)" in first and "finished=2#finished" in first
    assert "‹ newer" not in first


def test_the_api_list_walks_to_the_end_of_1000_games_by_next_page(app, session, thousand):
    user, games = thousand
    client, headers = app.test_client(), bearer(session, user)
    seen: list[str] = []
    page: int | None = 1
    while page is not None:
        answer = client.get(f"/api/v1/games?page={page}&page_size=100", headers=headers)
        assert answer.status_code == 200
        meta = json.loads(answer.headers["X-Pagination"])
        seen += [game["id"] for game in answer.get_json()]
        page = meta.get("next_page")
    assert meta["page"] == meta["last_page"] and "next_page" not in meta
    assert len(seen) == len(set(seen)) == meta["total"]  # every game once
    assert {game.public_id for game in games} <= set(seen)
    past = meta["last_page"] + 1
    beyond = client.get(f"/api/v1/games?page={past}&page_size=100", headers=headers)
    assert beyond.get_json() == [] and "page" not in json.loads(beyond.headers["X-Pagination"])
    too_big = client.get("/api/v1/games?page_size=101", headers=headers)
    assert too_big.status_code == 422
