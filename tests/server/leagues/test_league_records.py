"""A finished league game's record downloads like any game's and replays
with the engine to the result the league counted (the stored `game.result`)."""

from __future__ import annotations

import engine
from pbem.leagues.seasons import start_season
from tests.server.leagues.season_play import league_of, play_out
from tests.server.signed_in import sign_in


def test_a_league_games_record_replays_to_its_stored_result(app, session, make_user):
    _, league, (ann, bob) = league_of(session, make_user, ["Ann", "Bob"])
    season = start_season(session, league)
    session.commit()
    [game] = season.games
    play_out(session, game, bob.id)
    assert game.result is not None

    client = sign_in(app, app.test_client(), ann.id)
    download = client.get(f"/games/{game.public_id}/record.json")
    assert download.status_code == 200
    record = engine.Record.from_json(download.get_json())
    assert sorted(record.seats) == ["Ann", "Bob"]
    replayed = engine.Game.from_record(record).result()
    assert replayed is not None and replayed.to_json() == game.result
    bobs_seat = next(seat.position for seat in game.seats if seat.user_id == bob.id)
    assert replayed.winners == (bobs_seat,)
