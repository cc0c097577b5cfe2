"""A season from start to end in the services: schedule, rounds started as
the previous round ends, the table, promotion and relegation, withdrawal."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from pbem.leagues.balance import division_balance
from pbem.leagues.leagues import invite_entrant, join_league
from pbem.leagues.notices import SEASON_START
from pbem.leagues.seasons import start_season
from pbem.leagues.tables import division_table
from pbem.leagues.withdrawal import replace, withdraw
from pbem.models import GameStatus, Outbox, OutboxStatus
from tests.server.conftest import wait_for
from tests.server.leagues.season_play import league_of, play_out
from tests.server.signed_in import sign_in

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def next_round_or_end(session, season) -> bool:
    """Whether the season has games to play or is over. It moves on in a
    transaction of its own after the commit that ended a round's last game:
    the worker's, when the worker judged that game first, so the next round
    may come a moment after the test's last move."""
    session.expire_all()
    active = any(game.status == GameStatus.ACTIVE for game in season.games)
    return active or season.finished_at is not None


def test_a_season_in_rounds_runs_to_its_final_table(session, make_user):
    _, league, players = league_of(session, make_user, ["Ann", "Bob", "Cem", "Dan"])
    season = start_season(session, league, pacing="rounds")
    session.commit()
    assert len(season.games) == 2  # round 1 of 3: two games of two
    assert season.games[0].title == "Club – Season 1 – Round 1 – Game 1"
    order = {p.id: rank for rank, p in enumerate(players)}  # Ann beats everyone, Bob all but Ann
    for round_number in (1, 2, 3):
        wait_for(lambda: next_round_or_end(session, season), what="the season to move on")
        for game in [g for g in season.games if g.round == round_number]:
            best = min((s.user_id for s in game.seats), key=order.__getitem__)
            play_out(session, game, best)
    wait_for(lambda: next_round_or_end(session, season) and season.finished_at, what="its end")
    assert len(season.games) == 6
    table = division_table(session, season, 1)
    assert [row.place.name for row in table] == ["Ann", "Bob", "Cem", "Dan"]
    assert [row.row.points for row in table] == [3, 2, 1, 0]
    assert all(row.row.played == 3 for row in table)


def test_promotion_and_relegation_move_entrants_for_the_next_season(session, make_user):
    _, league, players = league_of(
        session, make_user, ["Ann", "Bob", "Cem", "Dan"], divisions=2, promotion=1
    )
    ann, bob, cem, dan = players
    for entrant in league.entrants:
        entrant.division = 1 if entrant.user_id in (ann.id, bob.id) else 2
    season = start_season(session, league)
    session.commit()
    assert {g.title for g in season.games} == {
        "Club – Season 1 – Division 1 – Round 1 – Game 1",
        "Club – Season 1 – Division 2 – Round 1 – Game 1",
    }
    for game in season.games:
        loser = bob.id if game.division == 1 else cem.id  # Bob is last of 1, Dan first of 2
        play_out(session, game, next(s.user_id for s in game.seats if s.user_id != loser))
    wait_for(lambda: next_round_or_end(session, season) and season.finished_at, what="its end")
    divisions = {e.user_id: e.division for e in league.entrants}
    assert divisions == {ann.id: 1, dan.id: 1, bob.id: 2, cem.id: 2}
    second = start_season(session, league)
    session.commit()
    assert second.number == 2
    one = next(g for g in second.games if g.division == 1)
    assert {s.user_id for s in one.seats} == {ann.id, dan.id}


def test_a_withdrawn_entrant_loses_its_games_played_out_by_bots(session, make_user):
    _, league, players = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    ann, _, cem = players
    season = start_season(session, league, pacing="rounds")
    session.commit()
    place = next(p for p in season.entrants if p.user_id == cem.id)
    withdraw(session, season, place.id, cem)
    session.commit()
    for _ in range(3):
        wait_for(lambda: next_round_or_end(session, season), what="the season to move on")
        for game in [g for g in season.games if g.status == GameStatus.ACTIVE]:
            humans = [s.user_id for s in game.seats if s.bot is None]
            play_out(session, game, min(humans, key=lambda u: u != ann.id))
    wait_for(lambda: next_round_or_end(session, season) and season.finished_at, what="its end")
    table = division_table(session, season, 1)
    assert [row.place.name for row in table] == ["Ann", "Bob", "Cem"]
    assert table[-1].row.points == 0 and table[-1].withdrawn
    assert table[-1].row.played == 2


def test_the_season_page_shows_the_table_with_links_to_games(app, session, make_user):
    _, league, players = league_of(session, make_user, ["Ann", "Bob"])
    season = start_season(session, league)
    session.commit()
    client = sign_in(app, app.test_client(), players[0].id)
    page = client.get(f"/leagues/{league.public_id}/seasons/1").get_data(as_text=True)
    assert "Ann" in page and "Bob" in page
    assert f"/games/{season.games[0].public_id}" in page
    assert "Season 1" in client.get(f"/leagues/{league.public_id}").get_data(as_text=True)


def test_the_balance_of_a_division_is_that_of_its_schedule(session, make_user):
    _, league, _ = league_of(session, make_user, ["Ann", "Bob", "Cem", "Dan", "Eve"])
    season = start_season(session, league, legs=2)
    session.commit()
    balance = division_balance(season, 1)
    assert balance.games == (8, 8) and balance.meetings == (2, 2) and balance.seats == (4, 4)


def test_a_replaced_player_is_not_sent_the_season_mail_held_for_them(session, make_user):
    """Cem's season-start mail waits for the end of his quiet hours; replaced
    meanwhile, he has no place left to be told about, so it is not sent."""
    now = datetime.now(UTC)
    quiet = f"{now - timedelta(hours=1):%H:00}-{now + timedelta(hours=2):%H:00}"
    owner, league, (ann, _) = league_of(session, make_user, ["Ann", "Bob"])
    cem = make_user("Cem", quiet_hours=quiet)
    invite_entrant(session, league, owner, cem.email, "https://pbem.test/league")
    join_league(session, league.public_id, cem)
    season = start_season(session, league)
    session.commit()
    held = select(Outbox).where(Outbox.recipient_id == cem.id, Outbox.kind == SEASON_START)
    assert session.scalar(held).status == OutboxStatus.PENDING
    dan = make_user("Dan")
    place = next(p for p in season.entrants if p.user_id == cem.id)
    replace(session, season, place.id, owner, dan.email)
    session.commit()
    assert session.scalar(held) is None
    assert session.scalar(select(Outbox).where(Outbox.recipient_id == ann.id)) is not None


def test_a_place_goes_to_an_address_invited_to_the_league_but_not_yet_joined(session, make_user):
    """The invitation's row becomes the newcomer's entry (one entry per address)."""
    owner, league, (ann, _bob) = league_of(session, make_user, ["Ann", "Bob"])
    season = start_season(session, league)
    invite_entrant(session, league, owner, "carl@example.org", "https://pbem.test/league")
    session.commit()
    place = next(p for p in season.entrants if p.user_id == ann.id)
    replace(session, season, place.id, owner, "carl@example.org")
    session.commit()
    carl = [e for e in league.entrants if e.invited_email == "carl@example.org"]
    assert len(carl) == 1 and carl[0].user_id == place.user_id
    assert carl[0].left_at is None
