"""GET /api/v1/players/{id}: a player's profile by the OpenAPI document's schema."""

from __future__ import annotations

import pytest
from sqlalchemy import delete

from pbem.models import Move
from tests.server.pipeline_helpers import rivals


def test_the_api_gives_the_profile_by_its_schema(api, session, make_user, token_for):
    ann, bob = make_user("Ann"), make_user("Bob")
    done, going_on = rivals(session, ann, bob)
    answer = api.call("getPlayer", token_for(bob), user_id=ann.id)
    assert answer.status_code == 200
    body = answer.get_json()
    assert (body["id"], body["name"], body["time_zone"]) == (ann.id, "Ann", "UTC")
    [rating] = body["ratings"]
    assert (rating["ruleset"], rating["games"]) == ("toy-pick", 1)
    assert rating["rating"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
    assert [point["game"] for point in rating["history"]] == [done.public_id]
    [won] = body["finished"]["games"]
    assert (won["id"], won["outcome"], won["against_bots"]) == (done.public_id, "won", False)
    assert won["rating_change"] > 0
    assert [game["id"] for game in body["active"]["games"]] == [going_on.public_id]
    assert ann.email not in answer.get_data(as_text=True)


def test_unknown_players_are_404_bad_pages_422_and_no_token_401(api, session, make_user, token_for):
    ann = make_user("Ann")
    ann_token = token_for(ann)
    missing = api.call("getPlayer", ann_token, user_id=999999)
    assert (missing.status_code, missing.get_json()["message"]) == (404, "no such player")
    assert api.call("getPlayer", None, user_id=ann.id).status_code == 401
    bad_page = api.call("getPlayer", ann_token, user_id=f"{ann.id}?finished_page=0")
    assert bad_page.status_code == 422


def test_finished_games_show_their_stored_result_without_a_replay(
    api, session, make_user, token_for
):
    """Honest check that no finished game is replayed: with its moves deleted,
    a replay would find the game not over ('no result'); the stored result
    still says who won."""
    ann, bob = make_user("Ann"), make_user("Bob")
    done, _ = rivals(session, ann, bob)
    assert done.result["ranking"] == [[0], [1]]
    session.execute(delete(Move).where(Move.game_id == done.id))
    session.commit()
    body = api.call("getPlayer", token_for(bob), user_id=ann.id).get_json()
    [won] = body["finished"]["games"]
    assert (won["id"], won["outcome"]) == (done.public_id, "won")
    assert (won["title"], won["league"], won["season"]) == (done.title, None, None)
    assert body["leagues"] == []
