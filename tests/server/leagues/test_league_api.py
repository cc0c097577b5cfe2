"""The leagues API through its OpenAPI document: each endpoint's answers and
refusals, a withdrawal played out, and a second season after promotion."""

from __future__ import annotations

import pytest

from tests import toy_game  # noqa: F401  (registers the toy ruleset)
from tests.server.leagues.api_play import league_with, picks_by_order, play_games, play_season


@pytest.fixture
def club(make_user, token_for):
    """An organiser and four players, each with a token."""
    organiser = make_user("Olga")
    players = {name: make_user(name) for name in ("Ann", "Bob", "Cem", "Dan")}
    return token_for(organiser), {name: (user, token_for(user)) for name, user in players.items()}


def tokens_of(players) -> dict[str, str]:
    return {name: token for name, (_, token) in players.items()}


def test_a_league_is_made_and_read_by_its_schema(api, club, make_user, token_for):
    olga, players = club
    body = {
        "name": "Club",
        "ruleset": "toy-pick",
        "players_per_game": 2,
        "options": {"target": 3},
        "time_control": {"days_per_move": 3},
        "points_table": [3, 1],
        "divisions": 2,
        "promotion": 1,
    }
    created = api.call("createLeague", olga, body)
    assert created.status_code == 201
    league = created.get_json()
    assert (league["name"], league["open"], league["points_table"]) == ("Club", False, ["3", "1"])
    assert league["time_control"]["days_per_move"] == 3 and league["organiser"] is True
    assert [o["name"] for o in league["organisers"]] == ["Olga"]
    ann, ann_token = players["Ann"]
    invited = api.call("inviteEntrant", olga, {"email": ann.email}, league_id=league["id"])
    [entrant] = invited.get_json()["entrants"]
    assert (entrant["status"], entrant["email"], entrant["division"]) == ("invited", ann.email, 2)
    seen = api.call("getLeague", players["Bob"][1], league_id=league["id"])
    assert seen.status_code == 200 and seen.get_json()["organiser"] is False
    assert ann.email not in seen.get_data(as_text=True)
    joined = api.call("joinLeague", ann_token, league_id=league["id"]).get_json()
    assert [(e["player"], e["name"], e["status"]) for e in joined["entrants"]] == [
        (ann.id, "Ann", "entered")
    ]


def test_league_refusals(api, club):
    olga, players = club
    bob_token = players["Bob"][1]
    bad = {"name": "Club", "ruleset": "toy-pick", "players_per_game": 9}
    assert api.call("createLeague", None, {**bad, "players_per_game": 2}).status_code == 401
    assert api.call("createLeague", olga, bad).status_code == 422
    unknown = api.call("createLeague", olga, {**bad, "ruleset": "chess", "players_per_game": 2})
    assert unknown.status_code == 422 and "chess" in unknown.get_json()["message"]
    table = {**bad, "players_per_game": 2, "points_table": [0, 1]}
    assert api.call("createLeague", olga, table).status_code == 422
    assert api.call("getLeague", olga, league_id="nope").status_code == 404
    league_id = league_with(api, olga, {"Ann": players["Ann"]})
    ann_email = players["Ann"][0].email
    refused = api.call("inviteEntrant", bob_token, {"email": "x@example.org"}, league_id=league_id)
    assert refused.status_code == 403
    again = api.call("inviteEntrant", olga, {"email": ann_email}, league_id=league_id)
    assert again.status_code == 409
    assert (
        api.call("inviteEntrant", olga, {"email": "not mail"}, league_id=league_id).status_code
        == 422
    )
    assert api.call("joinLeague", bob_token, league_id=league_id).status_code == 403
    assert api.call("joinLeague", players["Ann"][1], league_id=league_id).status_code == 409
    assert api.call("leaveLeague", bob_token, league_id=league_id).status_code == 404
    assert api.call("getStandings", olga, league_id=league_id).status_code == 404
    assert api.call("startSeason", bob_token, {}, league_id=league_id).status_code == 403
    too_few = api.call("startSeason", olga, {}, league_id=league_id)
    assert (
        too_few.status_code == 422 and "division 1 has 1 entrant" in too_few.get_json()["message"]
    )
    bad_pacing = api.call("startSeason", olga, {"pacing": "soon"}, league_id=league_id)
    assert bad_pacing.status_code == 422


def test_open_leagues_take_anyone_and_organisers_can_be_added(api, club):
    olga, players = club
    body = {"name": "Open", "ruleset": "toy-pick", "players_per_game": 2, "open": True}
    league_id = api.call("createLeague", olga, body).get_json()["id"]
    bob, bob_token = players["Bob"]
    assert api.call("joinLeague", bob_token, league_id=league_id).status_code == 200
    added = api.call("addLeagueOrganiser", olga, {"email": bob.email}, league_id=league_id)
    assert added.status_code == 201
    assert [o["name"] for o in added.get_json()["organisers"]] == ["Olga", "Bob"]
    assert api.call("getLeague", bob_token, league_id=league_id).get_json()["organiser"] is True
    twice = api.call("addLeagueOrganiser", bob_token, {"email": bob.email}, league_id=league_id)
    assert twice.status_code == 409
    ann_token = players["Ann"][1]
    refused = api.call(
        "addLeagueOrganiser", ann_token, {"email": "x@example.org"}, league_id=league_id
    )
    assert refused.status_code == 403
    left = api.call("leaveLeague", bob_token, league_id=league_id).get_json()
    assert [e["status"] for e in left["entrants"]] == ["left"]


def test_a_season_in_rounds_lists_its_rounds_games_and_table(api, club):
    olga, players = club
    league_id = league_with(api, olga, players, options={"target": 3})
    started = api.call("startSeason", olga, {"pacing": "rounds"}, league_id=league_id)
    assert started.status_code == 201
    body = started.get_json()
    assert body["id"] == 1 and len(body["games"]) == 2
    second = api.call("startSeason", olga, {}, league_id=league_id)
    assert second.status_code == 409
    season = api.call("getSeason", players["Ann"][1], league_id=league_id, season=1).get_json()
    assert (season["number"], season["legs"], season["pacing"]) == (1, 1, "rounds")
    [division] = season["divisions"]
    assert division["balance"]["games"] == [3, 3] and division["balance"]["meetings"] == [1, 1]
    assert division["balance"]["text"].startswith("Each entrant plays 3 games")
    first, *later = division["rounds"]
    assert [g["game"] for g in first] == body["games"]
    assert all(g["game"] is None and g["status"] == "scheduled" for r in later for g in r)
    assert all(len(g["seats"]) == 2 for r in later for g in r)
    assert later[0][0]["title"] == "Club – Season 1 – Round 2 – Game 1"
    assert [row["points"] for row in division["standings"]] == [0, 0, 0, 0]
    game = api.call("getGame", olga, game_id=body["games"][0]).get_json()
    assert game["title"] == "Club – Season 1 – Round 1 – Game 1"
    assert game["league"] == {
        "id": league_id,
        "name": "Club",
        "season": 1,
        "division": 1,
        "round": 1,
        "number": 1,
    }
    assert api.call("getSeason", olga, league_id=league_id, season=2).status_code == 404
    missing = api.call("getStandings", olga, query={"division": 2}, league_id=league_id)
    assert missing.status_code == 404


def test_a_withdrawn_entrant_ends_with_no_points_and_a_replacement_takes_a_row(
    app,
    api,
    club,
    make_user,
    token_for,
):
    olga, players = club
    league_id = league_with(api, olga, players, options={"target": 3})
    started = api.call("startSeason", olga, {"pacing": "rounds"}, league_id=league_id)
    choose = picks_by_order(["Ann", "Bob", "Eve", "Cem"])  # Dan loses every game
    play_games(app, api, started.get_json()["games"], olga, tokens_of(players), choose)
    rows = api.call("getStandings", olga, league_id=league_id).get_json()["rows"]
    assert sum(row["played"] for row in rows) == 4  # round 1 of 3 is over
    place = {row["name"]: row["entrant"] for row in rows}
    where = {"league_id": league_id, "season": 1}
    refused = api.call("withdrawEntrant", players["Ann"][1], entrant=place["Dan"], **where)
    assert refused.status_code == 403
    withdrawn = api.call("withdrawEntrant", players["Dan"][1], entrant=place["Dan"], **where)
    assert withdrawn.status_code == 200
    assert [r["withdrawn"] for r in withdrawn.get_json()["rows"] if r["name"] == "Dan"] == [True]
    again = api.call("withdrawEntrant", olga, entrant=place["Dan"], **where)
    assert again.status_code == 409
    eve = make_user("Eve")
    cem_row = {"entrant": place["Cem"], **where}
    not_organiser = api.call("replaceEntrant", players["Ann"][1], {"email": eve.email}, **cem_row)
    assert not_organiser.status_code == 403
    replaced = api.call("replaceEntrant", olga, {"email": eve.email}, **cem_row)
    assert replaced.status_code == 200
    eve_row = next(r for r in replaced.get_json()["rows"] if r["entrant"] == place["Cem"])
    assert (eve_row["name"], eve_row["player"]) == ("Eve", eve.id)
    assert api.call("withdrawEntrant", olga, entrant=999999, **where).status_code == 404
    tokens = {**tokens_of(players), "Eve": token_for(eve)}
    season = play_season(app, api, league_id, 1, olga, tokens, choose)
    later = [g for r in season["divisions"][0]["rounds"][1:] for g in r if "Dan" in g["seats"]]
    for listed in later:  # rounds 2 and 3 seat a bot in Dan's name
        game = api.call("getGame", olga, game_id=listed["game"]).get_json()
        assert [s["kind"] for s in game["seats"] if s["name"] == "Dan"] == ["bot"]
    assert len(later) == 2
    table = api.call("getStandings", olga, league_id=league_id).get_json()
    assert table["season"] == 1
    by_name = {row["name"]: row for row in table["rows"]}
    assert [row["name"] for row in table["rows"]] == ["Ann", "Bob", "Eve", "Dan"]
    assert [row["points"] for row in table["rows"]] == [3, 2, 1, 0]
    assert (by_name["Dan"]["played"], by_name["Dan"]["place"]) == (3, "4")
    assert by_name["Dan"]["withdrawn"]
    league = api.call("getLeague", olga, league_id=league_id).get_json()
    assert league["seasons"][0]["finished_at"] is not None
    status = {e["name"]: e["status"] for e in league["entrants"]}
    assert (status["Cem"], status["Eve"]) == ("left", "entered")


def test_leaving_the_league_or_an_organiser_withdraws_from_the_season(api, club):
    olga, players = club
    league_id = league_with(api, olga, players)
    api.call("startSeason", olga, {}, league_id=league_id)
    left = api.call("leaveLeague", players["Cem"][1], league_id=league_id)
    assert left.status_code == 200
    assert {e["name"]: e["status"] for e in left.get_json()["entrants"]}["Cem"] == "left"
    rows = api.call("getStandings", olga, league_id=league_id).get_json()["rows"]
    assert {row["name"]: row["withdrawn"] for row in rows}["Cem"] is True
    dan = {row["name"]: row["entrant"] for row in rows}["Dan"]
    by_organiser = api.call("withdrawEntrant", olga, league_id=league_id, season=1, entrant=dan)
    assert by_organiser.status_code == 200
    games = api.call("getSeason", olga, league_id=league_id, season=1).get_json()
    for name in ("Cem", "Dan"):
        theirs = [g for r in games["divisions"][0]["rounds"] for g in r if name in g["seats"]]
        for listed in theirs:
            game = api.call("getGame", olga, game_id=listed["game"]).get_json()
            assert [s["kind"] for s in game["seats"] if s["name"] == name] == ["bot"]


def test_a_second_season_after_promotion_and_relegation(app, api, club):
    olga, players = club
    league_id = league_with(api, olga, players, options={"target": 3}, divisions=2, promotion=1)
    entrants = api.call("getLeague", olga, league_id=league_id).get_json()["entrants"]
    assert {e["division"] for e in entrants} == {2}  # newcomers start at the bottom
    for entrant in entrants:
        if entrant["name"] in ("Ann", "Bob"):
            placed = api.call(
                "setEntrantDivision",
                olga,
                {"division": 1},
                league_id=league_id,
                entrant=entrant["id"],
            )
            assert placed.status_code == 200, placed.get_json()
    ann_token = players["Ann"][1]
    refused = api.call(
        "setEntrantDivision",
        ann_token,
        {"division": 1},
        league_id=league_id,
        entrant=entrants[0]["id"],
    )
    assert refused.status_code == 403
    beyond = api.call(
        "setEntrantDivision", olga, {"division": 3}, league_id=league_id, entrant=entrants[0]["id"]
    )
    assert beyond.status_code == 422
    games = api.call("startSeason", olga, {}, league_id=league_id).get_json()["games"]
    assert len(games) == 2
    # Ann beats Bob in division 1, Dan beats Cem in division 2.
    play_games(app, api, games, olga, tokens_of(players), picks_by_order(["Ann", "Dan", "Bob"]))
    query = {"season": 1, "division": 2}
    lower = api.call("getStandings", olga, query=query, league_id=league_id)
    assert [row["name"] for row in lower.get_json()["rows"]] == ["Dan", "Cem"]
    league_json = api.call("getLeague", olga, league_id=league_id).get_json()
    divisions = {e["name"]: e["division"] for e in league_json["entrants"]}
    assert divisions == {"Ann": 1, "Dan": 1, "Bob": 2, "Cem": 2}
    second = api.call("startSeason", olga, {}, league_id=league_id).get_json()
    assert second["id"] == 2
    season = api.call("getSeason", olga, league_id=league_id, season=2).get_json()
    seated = {d["division"]: set(d["rounds"][0][0]["seats"]) for d in season["divisions"]}
    assert seated == {1: {"Ann", "Dan"}, 2: {"Bob", "Cem"}}
    current = api.call("getStandings", olga, league_id=league_id).get_json()
    assert (current["season"], current["division"]) == (2, 1)


def test_a_game_can_be_given_a_title(api, club):
    olga, _ = club
    body = {"ruleset": "toy-pick", "seats": ["me", "bot:random"], "title": "Friday rematch"}
    created = api.call("createGame", olga, body).get_json()
    assert (created["title"], created["league"]) == ("Friday rematch", None)
    bad = api.call("createGame", olga, {**body, "title": "two\nlines"})
    assert bad.status_code == 422
