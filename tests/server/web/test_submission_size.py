"""Size caps on a submission: at most one turn's worth of moves (the
ruleset's own bound under the server's ceiling) and moves of a sane length,
refused before any judging with a message that says the cap; nothing stored.
The mail channel's refusal is in tests/mail/test_abuse.py."""

from __future__ import annotations

import engine
from pbem.services import accounts
from pbem.services.replay import engine_game
from tests.server.pipeline_helpers import start_game
from tests.server.web.page_helpers import send, submissions, taluva_against


def test_every_ruleset_names_its_most_moves_in_one_go():
    bounds = {rules.name: rules.max_turn_moves for rules in engine.rulesets()}
    assert bounds["taluva"] == 2 and bounds["samurai"] == 6 and bounds["java"] == 33


def api_seat(app, session, make_user, ruleset: str = "taluva"):
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    game = start_game(app, session, ruleset, [ann, "bot"])
    client = app.test_client()

    def submit(moves: list[str]):
        return client.post(
            f"/api/v1/games/{game.public_id}/seats/0/moves",
            json={"moves": moves},
            headers={"Authorization": f"Bearer {token}"},
        )

    return game, submit


def test_the_api_refuses_more_moves_than_one_turn_holds(app, session, make_user):
    game, submit = api_seat(app, session, make_user)
    answer = submit(["tile 0,0 0,-1 1,-1", "hut 1,-1", "hut 0,-1"])
    assert answer.status_code == 422
    body = answer.get_json()
    assert "holds 3 moves; send at most 2 at once" in body["message"]
    assert body["errors"] == {
        "code": "pbem.too_many_moves",
        "params": {"count": 3, "most": 2},
        "rule": "submission size",
    }
    assert submissions(session, game) == 0


def test_the_server_ceiling_caps_a_rulesets_bound(app, session, make_user, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_MAX_SUBMISSION_MOVES", 1)
    game, submit = api_seat(app, session, make_user)
    answer = submit(["tile 0,0 0,-1 1,-1", "hut 1,-1"])
    assert answer.status_code == 422
    assert "send at most 1 at once" in answer.get_json()["message"]
    assert submissions(session, game) == 0


def test_the_api_refuses_an_overlong_move(app, session, make_user):
    game, submit = api_seat(app, session, make_user)
    answer = submit(["tile " + "0" * 5000])
    assert answer.status_code == 422
    assert "a move of 5005 characters" in answer.get_json()["message"]
    assert f"at most {app.config['PBEM_MAX_MOVE_CHARS']}" in answer.get_json()["message"]
    assert submissions(session, game) == 0


def test_a_whole_turn_is_still_accepted(app, session, make_user):
    game, submit = api_seat(app, session, make_user)
    state = engine_game(game).state
    tile = state.legal_moves(0)[0]
    state.apply(0, tile)
    turn = [state.format_move(tile), state.format_move(state.legal_moves(0)[0])]
    assert submit(turn).status_code == 202
    # Ann's one submission: the bot's answer may be stored by now as well.
    assert submissions(session, game, author=game.seats[0].user) == 1


def test_the_game_page_refuses_too_many_moves_and_keeps_the_text(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    text = "tile 0,0 0,-1 1,-1\nhut 1,-1\nhut 0,-1"
    for action in ("preview", "submit"):
        page = send(signed_in_as(ann), game, text, action)
        assert page.status_code == 422
        html = page.get_data(as_text=True)
        assert "holds 3 moves; send at most 2 at once" in html
        assert "hut 0,-1</textarea>" in html
    assert submissions(session, game) == 0
