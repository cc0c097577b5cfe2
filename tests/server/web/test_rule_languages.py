"""The game page shows rule refusals in the reader's language: a preview's
refusal at once, a stored submission's when it is shown later."""

from __future__ import annotations

from tests.server.conftest import drain
from tests.server.pipeline_helpers import judged, send
from tests.server.web.page_helpers import taluva_against


def test_a_preview_is_refused_in_the_players_chosen_language(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    ann.language = "fr"
    session.commit()
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    response = browser.post(f"/games/{game.public_id}/preview", {"moves": "hutte 2,-1", "ply": "0"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "puis construisez [tour : tuile, puis construction]" in page


def test_the_turn_builder_hears_a_refusal_in_the_players_language(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    ann.language = "fr"
    session.commit()
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    response = browser.get(f"/games/{game.public_id}/follow?moves=hutte+2,-1&ply=0")
    assert response.status_code == 422
    assert "puis construisez [tour : tuile, puis construction]" in response.get_json()["error"]
    after_tile = browser.get(f"/games/{game.public_id}/follow?moves=tuile+0,0+0,-1+1,-1&ply=0")
    answer = after_tile.get_json()
    assert after_tile.status_code == 200 and 'data-move="hutte ' in answer["legal"]
    assert 'data-space="0,-1"' in answer["board"]


def test_a_stored_refusal_follows_the_browser_language(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    stored = send(app, session, game, 0, "tile 0,0 0,-1 1,-1\nhut 5,5")
    judged(app, stored.id)
    drain(app)
    browser = signed_in_as(ann)
    url = f"/games/{game.public_id}?submission={stored.id}"
    browser.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    assert "na 5,5 není žádná zem [stavění]" in browser.get(url).get_data(as_text=True)
    browser.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    english = browser.get(url).get_data(as_text=True)
    assert "Refused: there is no land on 5,5 [building]" in english
