"""The league pages through the Flask client: making a league, inviting,
joining, starting a season, the season page (balance, table, rounds),
withdrawing and replacing, and the season's exports."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from fractions import Fraction
from urllib.parse import unquote

import pytest
from sqlalchemy import select

import engine
from pbem.leagues.leagues import create_league, find_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.models import Entrant, Game, League, Outbox, Season, SeasonEntrant
from pbem.services.replay import engine_game
from pbem.web.locale_format import points_words
from tests.server.csrf_browser import Browser
from tests.server.leagues.season_play import league_of, play_out

LEAGUE_URL = re.compile(r"/leagues/([\w-]+)$")


def text(response) -> str:
    return response.get_data(as_text=True)


def test_a_league_is_made_through_the_form(session, make_user, signed_in_as):
    org = signed_in_as(make_user("Org"))
    assert "Toy Pick" in text(org.get("/leagues/new"))
    form = text(org.get("/leagues/new?game=toy-pick"))
    assert 'name="option-target"' in form and 'name="days-per-move"' in form
    # The default scoring, for 2 players and for 3 (toy-pick allows both).
    assert "a win 1, a draw ½ each with 2 players; with 3 or 4, one point per player" in form
    asked = {
        "game": "toy-pick",
        "name": "Club",
        "players": "2",
        "option-target": "3",
        "clock": "none",
        "points": "",
        "open": "1",
        "divisions": "1",
        "promotion": "0",
    }
    bad = org.post("/leagues/new", {**asked, "points": "0 1"})
    assert bad.status_code == 422 and "cannot get more points" in text(bad)
    bad = org.post("/leagues/new", {**asked, "divisions": "many"})
    assert bad.status_code == 422 and "divisions must be a whole number" in text(bad)
    made = org.post("/leagues/new", asked)
    assert made.status_code == 302
    league_id = LEAGUE_URL.search(made.headers["Location"]).group(1)
    league = find_league(session, league_id)
    assert (league.name, league.options, league.open) == ("Club", {"target": 3}, True)
    page = text(org.get(made.headers["Location"]))
    assert "Open to all" in page and f"/leagues/{league_id}" in page
    assert "Club" in text(org.get("/leagues"))


def test_invite_join_organise_and_start_a_season(session, make_user, signed_in_as):
    owner, bob, cem, eve = (make_user(n) for n in ("Org", "Bob", "Cem", "Eve"))
    league = create_league(session, owner, "Club", "toy-pick", 2, {"target": 3})
    session.commit()
    url = f"/leagues/{league.public_id}"
    org = signed_in_as(owner)
    for player in (bob, cem):
        assert org.post(f"{url}/invite", {"email": player.email}).status_code == 302
    twice = org.post(f"{url}/invite", {"email": bob.email})
    assert twice.status_code == 409 and "is invited to this league already" in text(twice)
    too_few = org.post(f"{url}/seasons", {"legs": "1", "pacing": "all"})
    assert too_few.status_code == 422 and "the league has no entrants yet" in text(too_few)
    assert f"invited: {bob.email}" in text(org.get(url))
    stranger = signed_in_as(eve)
    seen = text(stranger.get(url))
    assert bob.email not in seen and "Join the league" not in seen and 'id="organiser"' not in seen
    assert stranger.post(f"{url}/join").status_code == 403
    assert stranger.post(f"{url}/seasons", {"legs": "1", "pacing": "all"}).status_code == 403
    for player in (bob, cem):
        browser = signed_in_as(player)
        assert "Join the league" in text(browser.get(url))
        assert browser.post(f"{url}/join").status_code == 302
    assert org.post(f"{url}/organisers", {"email": eve.email}).status_code == 302
    assert 'id="organiser"' in text(stranger.get(url))
    started = stranger.post(f"{url}/seasons", {"legs": "2", "pacing": "rounds", "round-days": "7"})
    assert started.status_code == 302 and started.headers["Location"].endswith("/seasons/1")
    season = session.scalar(select(Season).where(Season.league_id == league.id))
    assert (season.legs, season.pacing, season.round_days) == (2, "rounds", 7)
    page = text(org.get(started.headers["Location"]))
    assert "Each entrant plays 2 games; each pair of entrants meets twice" in page
    game = session.scalar(select(Game).where(Game.season_id == season.id))
    assert f"/games/{game.public_id}" in page and game.title in page
    assert "Bob, Cem" in page or "Cem, Bob" in page  # round 2's pairing, not started yet
    assert "starts when round 1 is over, or on" in page


def test_the_invitation_link_signs_the_invitee_in_and_joins_in_one_step(
    app, session, make_user, signed_in_as
):
    owner = make_user("Org")
    league = create_league(session, owner, "Club", "toy-pick", 2, {"target": 3})
    session.commit()
    url = f"/leagues/{league.public_id}"
    assert (
        signed_in_as(owner).post(f"{url}/invite", {"email": "Jana@Example.org"}).status_code == 302
    )
    row = session.scalar(
        select(Outbox).where(Outbox.kind == "league_invite").order_by(Outbox.id.desc())
    )
    link = row.payload["link"]
    path = link[link.index("/leagues/invitation/") :]
    stranger = signed_in_as(make_user("Eve"))
    assert stranger.get(path).status_code == 403  # for the invitee only
    jana = Browser(app.test_client())  # the mail opened where no one is signed in
    assert "Join the league" in text(jana.get(path))
    joined = jana.post(path)
    assert joined.status_code == 302 and joined.location.startswith("/welcome")
    assert url in unquote(joined.location)
    session.expire_all()
    (entrant,) = session.scalars(select(Entrant).where(Entrant.league_id == league.id))
    assert entrant.user.email == "jana@example.org" and entrant.joined_at is not None
    assert "Leave the league" in text(jana.get(url))  # signed in as Jana, an entrant
    assert jana.get(path).status_code == 400  # used up
    assert Browser(app.test_client()).post(path).status_code == 400


def test_a_season_whose_entrants_play_unequal_counts_ranks_by_points_per_game(
    session, make_user, signed_in_as
):
    owner = make_user("Org")
    for entrants, unequal in ((8, True), (4, False)):  # 4 entrants play the 4 triples
        league = create_league(session, owner, "Club", "toy-pick", 3, {"target": 3})
        for number in range(entrants):
            player = make_user(f"P{number}")
            invite_entrant(session, league, owner, player.email, "https://pbem.test/league")
            join_league(session, league.public_id, player)
        session.commit()
        start_season(session, league)
        session.commit()
        page = text(signed_in_as(owner).get(f"/leagues/{league.public_id}/seasons/1"))
        note = "the table ranks by points per game, then score per game"
        assert (note in page) is unequal, entrants


def test_the_table_shows_points_exactly_and_links_each_game(session, make_user, signed_in_as):
    owner, league, (ann, _bob, cem) = league_of(
        session, make_user, ["Ann", "Bob", "Cem"], points=["3/2", "0"]
    )
    season = start_season(session, league)
    session.commit()
    game = next(g for g in season.games if ann.id in {s.user_id for s in g.seats})
    play_out(session, game, ann.id)
    page = text(signed_in_as(cem).get(f"/leagues/{league.public_id}/seasons/1"))
    ann_row = re.search(r"<tr>\s*<td>1</td>.*?</tr>", page, re.S).group(0)
    assert f"/players/{ann.id}" in ann_row and "<td>1½</td>" in ann_row
    assert f"/games/{game.public_id}" in ann_row
    assert "Withdraw</a>" not in page  # the organisers' row actions
    assert "Withdraw</a>" in text(signed_in_as(owner).get(f"/leagues/{league.public_id}/seasons/1"))


def test_a_player_withdraws_after_confirming(session, make_user, signed_in_as):
    _, league, (_ann, bob, _cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    start_season(session, league)
    session.commit()
    url = f"/leagues/{league.public_id}/seasons/1"
    player = signed_in_as(bob)
    assert "Withdraw from the season" in text(player.get(url))
    asked = player.get(f"{url}/withdraw")
    assert asked.status_code == 200 and "cannot be undone" in text(asked)
    assert player.post(f"{url}/withdraw").status_code == 302
    place = session.scalar(select(SeasonEntrant).where(SeasonEntrant.user_id == bob.id))
    session.refresh(place)
    assert place.withdrawn_at is not None
    page = text(player.get(url))
    assert "Withdraw from the season" not in page and '<span class="tag">withdrawn</span>' in page
    assert player.get(f"{url}/withdraw").status_code == 404


def test_an_organiser_withdraws_one_entrant_and_replaces_another(session, make_user, signed_in_as):
    owner, league, (ann, bob, cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    season = start_season(session, league)
    session.commit()
    places = {p.user_id: p for p in season.entrants}
    url = f"/leagues/{league.public_id}/seasons/1/places"
    assert signed_in_as(ann).post(f"{url}/{places[bob.id].id}/withdraw").status_code == 403
    org = signed_in_as(owner)
    assert "Withdraw Bob" in text(org.get(f"{url}/{places[bob.id].id}/withdraw"))
    assert org.post(f"{url}/{places[bob.id].id}/withdraw").status_code == 302
    dan = make_user("Dan")
    replaced = org.post(f"{url}/{places[cem.id].id}/replace", {"email": dan.email})
    assert replaced.status_code == 302
    session.expire_all()
    assert places[bob.id].withdrawn_at is not None
    assert places[cem.id].user_id == dan.id
    entrants = session.scalars(select(Entrant).where(Entrant.league_id == league.id)).all()
    assert {e.user_id for e in entrants if e.left_at is None} == {ann.id, bob.id, dan.id}


def test_exports_give_the_table_and_replayable_records(session, make_user, signed_in_as):
    _, league, (ann, bob, cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    season = start_season(session, league)
    session.commit()
    finished = next(g for g in season.games if ann.id in {s.user_id for s in g.seats})
    play_out(session, finished, ann.id)
    browser = signed_in_as(cem)
    url = f"/leagues/{league.public_id}/seasons/1"
    table = browser.get(f"{url}/standings.csv")
    assert table.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(text(table))))
    assert next(r["player"] for r in rows) == "Ann"
    assert (rows[0]["place"], rows[0]["played"], rows[0]["points"]) == ("1", "1", "1")
    assert [r["withdrawn"] for r in rows] == ["no"] * 3  # not Python's "False"
    shown = browser.get(f"{url}/standings.json").get_json()
    assert shown["season"] == 1 and shown["standings"][0]["player"] == "Ann"
    outsider = next(p for p in (bob, cem) if p.id not in {s.user_id for s in finished.seats})
    secret = signed_in_as(outsider).get(f"{url}/records.zip")  # toy-pick's picks are secret
    assert zipfile.ZipFile(io.BytesIO(secret.get_data())).namelist() == []
    archive = signed_in_as(ann).get(f"{url}/records.zip")
    assert archive.headers["Content-Disposition"] == "attachment; filename=season-1.zip"
    with zipfile.ZipFile(io.BytesIO(archive.get_data())) as opened:
        names = opened.namelist()
        title = f"Club-Season-1-Round-{finished.round}-Game-{finished.number}"
        assert names == [f"{title}-{finished.public_id}.json"]
        record = engine.Record.loads(opened.read(names[0]).decode())
    assert engine.Game.from_record(record).result() == engine_game(finished).result()


def test_a_league_game_page_shows_its_title_and_season(session, make_user, signed_in_as):
    _, league, (ann, _bob) = league_of(session, make_user, ["Ann", "Bob"])
    season = start_season(session, league)
    session.commit()
    game = season.games[0]
    page = text(signed_in_as(ann).get(f"/games/{game.public_id}"))
    assert f"<h1>{game.title}</h1>" in page
    assert f'/leagues/{league.public_id}/seasons/1">Club – Season 1</a>' in page
    watched = text(signed_in_as(make_user("Eve")).get(f"/games/{game.public_id}/watch"))
    assert f"<h1>Watching {game.title}</h1>" in watched and "Toy Pick" in watched


def test_my_games_are_grouped_by_league_season(session, make_user, signed_in_as):
    _, league, (ann, _bob) = league_of(session, make_user, ["Ann", "Bob"])
    start_season(session, league)
    session.commit()
    browser = signed_in_as(ann)
    made = browser.post(
        "/games/new/toy-pick",
        {"title": "Friday fun", "seat-0": "me", "seat-1": "bot:random", "clock": "none"},
    )
    assert made.status_code == 302
    casual = session.scalar(select(Game).where(Game.title == "Friday fun"))
    assert casual is not None and casual.season_id is None
    assert "<h1>Friday fun</h1>" in text(browser.get(made.headers["Location"]))
    home = text(browser.get("/"))
    league_group = home.index('<h3 class="game-group">Club – Season 1</h3>')
    assert league_group < home.index("Club – Season 1 – Round 1 – Game 1")
    assert '<h3 class="game-group">Casual games</h3>' in home
    bad = browser.post(
        "/games/new/toy-pick", {"title": "x" * 201, "seat-0": "me", "seat-1": "bot:random"}
    )
    assert bad.status_code == 422 and "at most 200 characters" in text(bad)


def test_only_the_leagues_one_may_see_are_listed(session, make_user, signed_in_as):
    owner, eve = make_user("Org"), make_user("Eve")
    create_league(session, owner, "Closed club", "toy-pick", 2)
    create_league(session, owner, "Open club", "toy-pick", 2, open_to_all=True)
    session.commit()
    listed = text(signed_in_as(eve).get("/leagues"))
    assert "Open club" in listed and "Closed club" not in listed
    assert "Closed club" in text(signed_in_as(owner).get("/leagues"))
    assert session.scalar(select(League).where(League.name == "Open club")).open


def test_leaving_the_league_withdraws_from_the_season_after_confirming(
    session, make_user, signed_in_as
):
    _, league, (_ann, bob, _cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    start_season(session, league)
    session.commit()
    url = f"/leagues/{league.public_id}"
    player = signed_in_as(bob)
    assert "Leave the league" in text(player.get(url))
    assert "count as losses" in text(player.get(f"{url}/leave"))
    assert player.post(f"{url}/leave").status_code == 302
    session.expire_all()
    entrant = session.scalar(select(Entrant).where(Entrant.user_id == bob.id))
    place = session.scalar(select(SeasonEntrant).where(SeasonEntrant.user_id == bob.id))
    assert entrant.left_at is not None and place.withdrawn_at is not None
    assert player.get(f"{url}/leave").status_code == 404


@pytest.mark.parametrize(
    ("points", "shown"),
    [
        ("0", "0"),
        ("3", "3"),
        ("1/2", "½"),
        ("3/2", "1½"),
        ("8/3", "2⅔"),
        ("2/5", "2/5"),
        ("12/5", "2 2/5"),
    ],
)
def test_points_are_shown_exactly(points, shown):
    assert points_words(Fraction(points)) == shown


def test_an_organiser_places_entrants_in_divisions(session, make_user, signed_in_as):
    owner, ann, bob = (make_user(n) for n in ("Org", "Ann", "Bob"))
    league = create_league(session, owner, "Club", "toy-pick", 2, {"target": 3}, divisions=2)
    for player in (ann, bob):
        invite_entrant(session, league, owner, player.email, "https://pbem.test/league")
        join_league(session, league.public_id, player)
    session.commit()
    url = f"/leagues/{league.public_id}"
    anns = next(e for e in league.entrants if e.user_id == ann.id)
    assert anns.division == 2  # newcomers start at the bottom
    org = signed_in_as(owner)
    assert "Move</button>" in text(org.get(url))
    assert org.post(f"{url}/entrants/{anns.id}/division", {"division": "1"}).status_code == 302
    session.expire_all()
    assert anns.division == 1
    assert org.post(f"{url}/entrants/{anns.id}/division", {"division": "3"}).status_code == 422
    assert org.post(f"{url}/entrants/{anns.id}/division", {"division": "x"}).status_code == 422
    player = signed_in_as(bob)
    assert "Move</button>" not in text(player.get(url))
    assert player.post(f"{url}/entrants/{anns.id}/division", {"division": "2"}).status_code == 403
