"""Choosing bots' levels on the pages: the new-game form seats bots at the
levels chosen and refuses an unknown one in the reader's language; pages
show each bot's level; a game's and a league's organiser see and change the
stand-in level."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.leagues.leagues import create_league
from pbem.models import Game, GameEvent
from tests.server.unknown_bot_level import UNKNOWN
from tests.server.web.page_helpers import created_game


@pytest.mark.parametrize("language", sorted(UNKNOWN))
def test_the_form_refuses_an_unknown_level_in_the_readers_language(
    signed_in_as, make_user, language
):
    user = make_user("Ann")
    user_browser = signed_in_as(user)
    user_browser.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    user_browser.get("/games/new/taluva")
    refused = user_browser.post("/games/new/taluva", {"seat-0": "me", "seat-1": "bot:grandmaster"})
    assert refused.status_code == 422
    assert UNKNOWN[language] in refused.get_data(as_text=True).replace("&#39;", "'")


def test_the_form_seats_bots_at_the_levels_chosen_and_pages_show_them(
    signed_in_as, make_user, session
):
    browser = signed_in_as(make_user("Ann"))
    page = browser.get("/games/new/taluva").get_data(as_text=True)
    assert 'value="bot:strong"' in page and 'name="stand_in"' in page
    form = {"seat-0": "me", "seat-1": "bot:strong", "seat-2": "bot", "stand_in": "easy"}
    game = created_game(session, browser.post("/games/new/taluva", form))
    assert [s.bot for s in game.seats] == [None, "strong", "medium"]
    assert game.stand_in == "easy"
    shown = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "bot: strong" in shown and "bot: medium" in shown


def test_the_organiser_changes_the_stand_in_on_the_game_page(
    api, make_user, token_for, signed_in_as, session
):
    ann = make_user("Ann")
    game = api.call("createGame", token_for(ann), {"ruleset": "taluva", "seats": ["me", "bot"]})
    game_id = game.get_json()["id"]
    browser = signed_in_as(ann)
    page = browser.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="stand-in-form"' in page and '<option value="random" selected>' in page
    browser.post(f"/games/{game_id}/organiser/stand-in", {"level": "easy"})
    session.expire_all()
    stored = session.scalar(select(Game).where(Game.public_id == game_id))
    assert stored.stand_in == "easy"
    kinds = session.scalars(select(GameEvent.kind).where(GameEvent.game_id == stored.id))
    assert list(kinds) == ["stand-in"]


def test_a_league_organiser_changes_the_stand_in_on_the_league_page(
    signed_in_as, make_user, session
):
    owner = make_user("Organiser")
    league = create_league(session, owner, "Club", "taluva", 2, stand_in="easy")
    session.commit()
    browser = signed_in_as(owner)
    page = browser.get(f"/leagues/{league.public_id}").get_data(as_text=True)
    assert 'id="stand-in-form"' in page and '<option value="easy" selected>' in page
    browser.post(f"/leagues/{league.public_id}/stand-in", {"level": "strong"})
    session.refresh(league)
    assert league.stand_in == "strong"
    new_league = browser.get("/leagues/new?game=taluva").get_data(as_text=True)
    assert 'name="stand_in"' in new_league
