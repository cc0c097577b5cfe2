"""A whole league season of 2-player Taluva through the API on PostgreSQL: the
organiser makes the league and invites three players, who join with their
own tokens; the season's three games (one player sits out each round) are
played to their end by the players (legal moves from the API, judged by the
worker); the standings are recounted by hand from each game's result, and
one game's record replays to its result."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest

import engine
from tests.server.leagues.api_play import league_with, play_games

NAMES = ("Ann", "Bob", "Cem")


def recount(games: list[dict]) -> dict[str, dict]:
    """Each player's games played, league points (win 1, draw 1/2, loss 0) and
    Taluva score (buildings placed), from the games' results as the API gives them."""
    table: dict[str, dict] = defaultdict(lambda: {"played": 0, "points": Fraction(0), "score": 0})
    for game in games:
        result = game["result"]
        names = [seat["name"] for seat in game["seats"]]
        best = result["ranking"][0]
        for position, name in enumerate(names):
            row = table[name]
            row["played"] += 1
            if position in best:
                row["points"] += Fraction(1, len(best))
            score = result["scores"][position]
            row["score"] += score["hut"] + score["temple"] + score["tower"]
    return table


@pytest.mark.parametrize("app", ["postgresql"], indirect=True)
def test_a_taluva_season_is_played_through_the_api_to_its_final_table(
    app,
    make_user,
    api,
    token_for,
    monkeypatch,
):
    # The players move as fast as the worker judges, far above any person's pace.
    monkeypatch.setitem(app.config, "PBEM_API_WRITE_LIMIT", "10000 per minute")
    olga = token_for(make_user("Olga"))
    players = {name: (user, token_for(user)) for name, user in ((n, make_user(n)) for n in NAMES)}
    league_id = league_with(api, olga, players, ruleset="taluva")
    entrants = api.call("getLeague", olga, league_id=league_id).get_json()["entrants"]
    assert sorted(e["name"] for e in entrants if e["status"] == "entered") == list(NAMES)

    started = api.call("startSeason", olga, {"legs": 1, "seed": "e2e"}, league_id=league_id)
    assert started.status_code == 201
    game_ids = started.get_json()["games"]
    assert len(game_ids) == 3  # a single round robin of three

    rng = random.Random(2026)
    tokens = {name: token for name, (_, token) in players.items()}
    for token in tokens.values():  # one mail a day rather than one a turn: a quicker worker
        assert api.call("updateSettings", token, {"digest_hour": 6}).status_code == 200
    games = play_games(
        app, api, game_ids, olga, tokens, lambda _game, _seat, legal: rng.choice(legal)
    )
    assert all(game["result"] is not None for game in games.values())

    expected = recount(list(games.values()))
    standings = api.call("getStandings", olga, league_id=league_id).get_json()
    assert (standings["season"], standings["division"]) == (1, 1)
    rows = standings["rows"]
    assert sorted(row["name"] for row in rows) == sorted(NAMES)
    for row in rows:
        mine = expected[row["name"]]
        assert (row["played"], row["points"], row["score"]) == (
            mine["played"],
            float(mine["points"]),
            mine["score"],
        ), row["name"]
        assert row["player"] == players[row["name"]][0].id
        assert sorted(row["games"]) == sorted(
            g for g, game in games.items() if row["name"] in [s["name"] for s in game["seats"]]
        )
    order = [(expected[row["name"]]["points"], expected[row["name"]]["score"]) for row in rows]
    assert order == sorted(order, reverse=True)  # points first, then buildings placed
    assert sum(row["points"] for row in rows) == 3  # one point a game, shared on a draw
    season = api.call("getSeason", olga, league_id=league_id, season=1).get_json()
    assert season["finished_at"] is not None
    assert all(g["status"] == "finished" for r in season["divisions"][0]["rounds"] for g in r)

    game_id = game_ids[0]
    first_seat = games[game_id]["seats"][0]["name"]
    answer = api.call("getGameRecord", tokens[first_seat], game_id=game_id)
    assert answer.status_code == 200
    record = engine.Record.from_json(answer.get_json())
    replayed = engine.Game.from_record(record).result()
    assert replayed is not None
    assert replayed.to_json() == games[game_id]["result"]
