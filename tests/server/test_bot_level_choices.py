"""Choosing bots' levels through the API: a seat's level ("bot:LEVEL", a
plain "bot" the default level), refused when unknown in the reader's
language; the stand-in level of a game and of a league, seen and changed by
its organiser. The pages' side: tests/server/web/test_bot_level_pages.py."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.leagues.leagues import invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.models import Game, League
from tests.server.unknown_bot_level import UNKNOWN


def test_the_api_seats_bots_at_the_levels_asked(api, make_user, token_for):
    token = token_for(make_user("Ann"))
    seats = ["me", "bot:strong", "bot"]  # Ann moves first: the bots only wait here
    body = {"ruleset": "taluva", "seats": seats, "stand_in": "easy"}
    game = api.call("createGame", token, body).get_json()
    assert [s["bot_level"] for s in game["seats"]] == [None, "strong", "medium"]
    assert game["stand_in"] == "easy"
    assert api.call("getGame", token, game_id=game["id"]).get_json()["seats"][1]["bot_level"] == (
        "strong"
    )


@pytest.mark.parametrize("language", sorted(UNKNOWN))
def test_the_api_refuses_an_unknown_level_in_the_readers_language(
    api, make_user, token_for, language
):
    token = token_for(make_user("Ann"))
    api.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    for body in (
        {"ruleset": "taluva", "seats": ["me", "bot:grandmaster"]},
        {"ruleset": "taluva", "seats": ["me", "bot:random"], "stand_in": "grandmaster"},
    ):
        refused = api.call("createGame", token, body)
        assert refused.status_code == 422
        assert refused.get_json()["message"] == UNKNOWN[language]


def test_the_organiser_sees_and_changes_a_games_stand_in(api, make_user, token_for):
    ann = make_user("Ann")
    token = token_for(ann)
    game = api.call("createGame", token, {"ruleset": "taluva", "seats": ["me", "bot:random"]})
    game_id = game.get_json()["id"]
    assert game.get_json()["stand_in"] == "random"  # the tests' PBEM_STAND_IN

    chosen = api.call("chooseStandIn", token, {"level": "strong"}, game_id=game_id)
    assert chosen.status_code == 200
    assert chosen.get_json()["game"]["stand_in"] == "strong"
    assert chosen.get_json()["event"]["kind"] == "stand-in"
    refused = api.call("chooseStandIn", token, {"level": "grandmaster"}, game_id=game_id)
    assert refused.status_code == 422 and refused.get_json()["message"] == UNKNOWN["en"]

    bob = make_user("Bob")
    not_yours = api.call("chooseStandIn", token_for(bob), {"level": "easy"}, game_id=game_id)
    assert not_yours.status_code in (403, 404)


def test_a_league_organiser_changes_the_stand_in_of_its_games_too(
    app, api, make_user, token_for, session
):
    owner, ann, bob = make_user("Organiser"), make_user("Ann"), make_user("Bob")
    token = token_for(owner)
    body = {"name": "Club", "ruleset": "taluva", "players_per_game": 2, "stand_in": "easy"}
    league = api.call("createLeague", token, body).get_json()
    assert league["stand_in"] == "easy"
    stored = session.scalar(select(League).where(League.public_id == league["id"]))
    for entrant in (ann, bob):
        invite_entrant(session, stored, owner, entrant.email, "https://pbem.test/league")
        join_league(session, stored.public_id, entrant)
    with app.app_context():
        [game] = start_season(session, stored, seed="stand-in").games
    session.commit()
    assert game.stand_in == "easy"

    changed = api.call("chooseLeagueStandIn", token, {"level": "strong"}, league_id=league["id"])
    assert changed.status_code == 200 and changed.get_json()["stand_in"] == "strong"
    session.expire_all()
    assert session.get_one(Game, game.id).stand_in == "strong"  # the game under way too
    refused = api.call("chooseLeagueStandIn", token, {"level": "nope"}, league_id=league["id"])
    assert refused.status_code == 422
    not_organiser = api.call(
        "chooseLeagueStandIn", token_for(ann), {"level": "easy"}, league_id=league["id"]
    )
    assert not_organiser.status_code == 403
