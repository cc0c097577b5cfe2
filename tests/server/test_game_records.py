"""A game's record through the API and as a download: refused (409) while the
game goes on, since it holds the seed; once it is over, the very file
`python -m engine replay` checks, replaying to the same result under the seed
whose SHA-256 every view showed from the start."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, GameStatus
from pbem.services.games import SeatSpec, create_game
from pbem.services.replay import engine_game
from tests.server.conftest import drain, wait_for
from tests.server.openapi_client import OpenApiClient
from tests.server.pipeline_helpers import start_game


def stored(session: Session, public_id: str) -> Game:
    session.expire_all()
    return session.scalar(select(Game).where(Game.public_id == public_id))


def toy_duel(api: OpenApiClient, ann: str, bob: str, target: int = 3) -> str:
    """Ann makes a game of toy picks to `target` points and Bob joins it."""
    body = {"ruleset": "toy-pick", "seats": ["me", "open"], "options": {"target": target}}
    game_id = api.call("createGame", ann, body).get_json()["id"]
    assert api.call("joinGame", bob, {}, game_id=game_id).get_json()["status"] == "active"
    return game_id


def play_round(app: Flask, api: OpenApiClient, game_id: str, ann: str, bob: str) -> str:
    """Ann picks 3 and Bob 1, so Ann scores the round's bonus; the game's status after."""
    for token, position, pick in ((ann, 0, 3), (bob, 1, 1)):
        body = {"moves": [f"pick {pick}"]}
        sent = api.call("submitMoves", token, body, game_id=game_id, position=position)
        assert sent.status_code == 202
    drain(app)
    return api.call("getGame", ann, game_id=game_id).get_json()["status"]


def play_to_the_end(app: Flask, api: OpenApiClient, game_id: str, ann: str, bob: str) -> None:
    for _ in range(3):  # each round's bonus is 1 to 3 points
        if play_round(app, api, game_id, ann, bob) == GameStatus.FINISHED:
            return
    raise AssertionError("the toy game did not end in three rounds")


def test_the_record_is_refused_until_the_game_is_over_then_replays_to_its_result(
    app,
    session,
    make_user,
    api,
    token_for,
):
    ann, bob, eve = (token_for(make_user(name)) for name in ("Ann", "Bob", "Eve"))
    game_id = toy_duel(api, ann, bob)
    view = api.call("getSeatView", ann, game_id=game_id, position=0).get_json()["view"]
    promised = view["seed_commitment"]

    early = api.call("getGameRecord", ann, game_id=game_id)
    assert early.status_code == 409 and "not over" in early.get_json()["message"]
    assert api.call("getGameRecord", eve, game_id=game_id).status_code == 404
    assert api.call("getGameRecord", game_id=game_id).status_code == 401
    assert api.call("getGameRecord", ann, game_id="no-such-game").status_code == 404

    play_to_the_end(app, api, game_id, ann, bob)
    answer = api.call("getGameRecord", bob, game_id=game_id)
    assert answer.status_code == 200
    game = stored(session, game_id)
    assert answer.get_json() == engine_game(game).to_record().to_json()
    record = engine.Record.from_json(answer.get_json())
    replayed = engine.Game.from_record(record)
    assert replayed.result() == engine_game(game).result()
    assert replayed.result().winners == (0,)
    assert len(record.moves) == len(game.moves) and record.seats == ["Ann", "Bob"]
    assert hashlib.sha256(record.seed.encode()).hexdigest() == promised
    assert replayed.view(None)["seed_commitment"] == promised
    # Toy picks stay secret from watchers for good, so the record is the players' only.
    assert api.call("getGameRecord", eve, game_id=game_id).status_code == 404


@pytest.mark.system
def test_a_bot_games_record_is_anyones_and_python_m_engine_replays_it(
    app,
    session,
    make_user,
    tmp_path,
    api,
    token_for,
):
    game = start_game(app, session, "taluva", ["bot", "bot"])
    wait_for(
        lambda: stored(session, game.public_id).status == GameStatus.FINISHED,
        timeout=90,
        what="the Taluva game to end",
    )
    played = engine_game(stored(session, game.public_id))
    # Taluva hides nothing from watchers: a stranger may have the record, like the watch page.
    stranger = token_for(make_user("Eve"))
    answer = api.call("getGameRecord", stranger, game_id=game.public_id)
    assert answer.get_json() == played.to_record().to_json()

    watched = app.test_client().get(f"/games/{game.public_id}/watch").get_data(as_text=True)
    assert 'id="record-link"' in watched  # nobody signed in: the link is for anyone
    download = app.test_client().get(f"/games/{game.public_id}/record.json")
    assert download.status_code == 200 and download.mimetype == "application/json"
    name = f"taluva-{game.public_id}.json"
    assert download.headers["Content-Disposition"] == f"attachment; filename={name}"
    assert download.get_data(as_text=True) == played.to_record().dumps()
    saved = tmp_path / name
    saved.write_bytes(download.get_data())
    checked = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(saved)],
        capture_output=True,
        text=True,
        check=True,
    )
    result = played.result()
    assert f"{len(played.log)} moves replayed" in checked.stdout
    assert f"game over ({result.reason})" in checked.stdout
    replayed = engine.Game.from_record(engine.Record.load(saved))
    assert replayed.result() == result
    assert replayed.view(None)["seed_commitment"] == hashlib.sha256(b"test-seed").hexdigest()


def test_an_abandoned_games_record_goes_up_to_where_it_stopped(
    app,
    session,
    make_user,
    api,
    token_for,
):
    ann, bob, eve = (token_for(make_user(name)) for name in ("Ann", "Bob", "Eve"))
    game_id = toy_duel(api, ann, bob, target=7)
    assert play_round(app, api, game_id, ann, bob) == GameStatus.ACTIVE
    assert api.call("abandonGame", ann, game_id=game_id).status_code == 200  # she made it

    answer = api.call("getGameRecord", bob, game_id=game_id)
    assert answer.status_code == 200
    record = engine.Record.from_json(answer.get_json())
    assert [(m.seat, m.text) for m in record.moves] == [(0, "pick 3"), (1, "pick 1")]
    assert record.seed == stored(session, game_id).seed  # nothing more will be drawn
    assert engine.Game.from_record(record).result() is None
    assert api.call("getGameRecord", eve, game_id=game_id).status_code == 404


def test_a_game_abandoned_before_it_started_has_no_record(
    app,
    session,
    make_user,
    api,
    token_for,
):
    org = make_user("Org")
    game = create_game(session, org, "taluva", [SeatSpec(user=org), SeatSpec()])
    session.commit()
    token = token_for(org)
    waiting = api.call("getGameRecord", token, game_id=game.public_id)
    assert waiting.status_code == 409 and "not over" in waiting.get_json()["message"]
    assert api.call("abandonGame", token, game_id=game.public_id).status_code == 200
    never = api.call("getGameRecord", token, game_id=game.public_id)
    assert never.status_code == 409 and "before it started" in never.get_json()["message"]
    watched = app.test_client().get(f"/games/{game.public_id}/watch")
    assert watched.status_code == 200 and 'id="record-link"' not in watched.get_data(as_text=True)
