"""A Java festival auction's outcome is told (issue 50): it is an event of
the game after the move that ended the auction, shown on the game page and
by the API's events in each reader's language, and a seat's later answer to
the auction is refused saying how it ended."""

from __future__ import annotations

from pbem.services.events import events_of
from tests.server.pipeline_helpers import (
    FESTIVAL_OUTCOMES,
    FESTIVAL_TURN,
    java_before_a_festival,
    judged,
    send,
)

FESTIVAL_OUTCOME, FRENCH_OUTCOME = FESTIVAL_OUTCOMES["en"], FESTIVAL_OUTCOMES["fr"]


def test_a_festivals_outcome_is_an_event_on_the_page_and_in_the_api(
    app, session, make_user, api, token_for, signed_in_as
):
    bob, ann, cid = make_user("Bob"), make_user("Ann"), make_user("Cid")
    ann.language = "fr"
    game = java_before_a_festival(app, session, [bob, ann, cid])
    assert events_of(session, game) == []
    assert judged(app, send(app, session, game, 2, "\n".join(FESTIVAL_TURN)).id).status == (
        "accepted"
    )
    [event] = events_of(session, game)
    assert (event.kind, event.ply, event.text) == ("rules", 14, FESTIVAL_OUTCOME)

    listed = api.call("listEvents", token_for(bob), game_id=game.public_id).get_json()
    assert [(e["kind"], e["ply"], e["text"]) for e in listed] == [("rules", 14, FESTIVAL_OUTCOME)]
    french = {"Authorization": f"Bearer {token_for(ann)}", "Accept-Language": "fr"}
    listed = api.client.get(f"/api/v1/games/{game.public_id}/events", headers=french)
    assert listed.get_json()[0]["text"] == FRENCH_OUTCOME
    page = signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "la fête en B3 revient sans partage à Cid, qui marque 1" in page

    late = api.client.post(
        f"/api/v1/games/{game.public_id}/seats/1/moves", json={"moves": ["passer"]}, headers=french
    )
    assert late.status_code == 422, late.get_json()
    assert late.get_json()["message"] == (
        f"l'enchère de la fête est terminée : {FRENCH_OUTCOME} [fête]"
    )
