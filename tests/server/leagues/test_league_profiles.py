"""A player's profile shows their leagues with their place, and league games
with their title and a link to their season; the API says the same."""

from __future__ import annotations

from pbem.leagues.seasons import start_season
from pbem.models import Season
from tests.server.conftest import wait_for
from tests.server.leagues.season_play import league_of, play_out
from tests.server.signed_in import sign_in


def test_the_profile_shows_leagues_places_and_league_games(app, session, make_user, api, token_for):
    _, league, (ann, bob, cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    season = start_season(session, league)
    session.commit()
    ann_vs_bob = next(g for g in season.games if {s.user_id for s in g.seats} == {ann.id, bob.id})
    play_out(session, ann_vs_bob, ann.id)

    # Bob lost his one game; Cem has played none: both have no points, tied 2nd.
    body = api.call("getPlayer", token_for(cem), user_id=bob.id).get_json()
    assert body["leagues"] == [
        {"id": league.public_id, "name": "Club", "season": 1, "division": 1, "place": "2="}
    ]
    [lost] = body["finished"]["games"]
    assert (lost["id"], lost["outcome"]) == (ann_vs_bob.public_id, "2nd of 2")
    assert (lost["title"], lost["league"], lost["season"]) == (
        ann_vs_bob.title,
        league.public_id,
        1,
    )
    ann_first = api.call("getPlayer", token_for(cem), user_id=ann.id).get_json()
    assert [entry["place"] for entry in ann_first["leagues"]] == ["1"]

    client = sign_in(app, app.test_client(), cem.id)
    page = client.get(f"/players/{bob.id}").get_data(as_text=True)
    season_page = f'href="/leagues/{league.public_id}/seasons/1"'
    assert ann_vs_bob.title in page and page.count(season_page) >= 2  # the game and the league
    assert 'class="league-place">place 2=<' in page


def test_the_profile_lists_every_season_played_not_only_the_newest(
    app,
    session,
    make_user,
    api,
    token_for,
):
    _, league, (ann, bob) = league_of(session, make_user, ["Ann", "Bob"])
    first = start_season(session, league)
    session.commit()
    for game in first.games:
        play_out(session, game, ann.id)

    def over() -> bool:
        """The season ends in a transaction of its own after the commit that
        ended its last game: the worker's, when the worker judged it first."""
        session.expire_all()
        return session.get(Season, first.id).finished_at is not None

    wait_for(over, what="the season's end")
    start_season(session, league)
    session.commit()
    body = api.call("getPlayer", token_for(bob), user_id=ann.id).get_json()
    assert [(entry["season"], entry["place"]) for entry in body["leagues"]] == [(2, "1="), (1, "1")]
