"""The weekly league digest's timing (the player's weekday and local hour,
once a week, however many sweeps run), who gets one (players with a season
under way only), and the sweep starting league rounds that are due by date.
Its settings: tests/server/clock/test_league_digest_settings.py."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import time_machine
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.leagues.digest import send_league_digests
from pbem.leagues.seasons import start_season
from pbem.leagues.withdrawal import withdraw
from pbem.models import Outbox, User
from pbem.services import notifications
from tests.server.leagues.season_play import league_of

PRAGUE, LOS_ANGELES = "Europe/Prague", "America/Los_Angeles"
# Monday 30 November 2026, 18:00 in Los Angeles is Tuesday 1 December, 02:00 UTC;
# Tuesday 1 December, 18:00 in Prague is 17:00 UTC.
BOB_DUE = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
ANN_DUE = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def digests(session, user: User) -> list[Outbox]:
    session.expire_all()
    query = select(Outbox).where(
        Outbox.recipient_id == user.id, Outbox.kind == notifications.LEAGUE_DIGEST
    )
    return list(session.scalars(query))


def season_for(session, make_user, names):
    """A league season under way (games without a clock) with these players."""
    _, league, players = league_of(session, make_user, names)
    season = start_season(session, league)
    session.commit()
    return season, players


def test_the_digest_comes_once_a_week_at_each_players_local_weekday_and_hour(session, make_user):
    season, (ann, bob, dan) = season_for(session, make_user, ["Ann", "Bob", "Dan"])
    ann.time_zone, ann.league_digest_day = PRAGUE, 1  # Tuesdays at 18:00
    bob.time_zone = dan.time_zone = LOS_ANGELES  # Mondays at 18:00, as every new player
    cem = make_user("Cem")  # plays in no league
    cem.time_zone = LOS_ANGELES
    session.commit()
    withdraw(session, season, next(p.id for p in season.entrants if p.user_id == dan.id), dan)
    session.commit()
    send_league_digests(session, BOB_DUE - MINUTE)
    assert digests(session, bob) == []  # 17:59 on Monday in Los Angeles
    send_league_digests(session, BOB_DUE + MINUTE)
    send_league_digests(session, BOB_DUE + 5 * MINUTE)
    assert len(digests(session, bob)) == 1
    assert digests(session, cem) == digests(session, dan) == []  # no season under way
    send_league_digests(session, ANN_DUE - MINUTE)
    assert digests(session, ann) == []
    send_league_digests(session, ANN_DUE + MINUTE)
    send_league_digests(session, ANN_DUE + timedelta(hours=5))  # still Tuesday in Prague
    assert len(digests(session, ann)) == 1
    assert len(digests(session, bob)) == 1  # Tuesday in Los Angeles too now: not his day
    next_week = timedelta(days=7)
    send_league_digests(session, BOB_DUE + next_week + MINUTE)
    send_league_digests(session, ANN_DUE + next_week + MINUTE)
    assert (len(digests(session, ann)), len(digests(session, bob))) == (2, 2)
    session.expire_all()
    assert session.get(User, ann.id).league_digest_sent_on.isoformat() == "2026-12-08"


def test_a_sweep_run_twice_sends_one_digest_held_until_quiet_hours_end(session, make_user):
    _, (ann, _bob) = season_for(session, make_user, ["Ann", "Bob"])
    ann.time_zone, ann.league_digest_day = PRAGUE, 1
    ann.quiet_start, ann.quiet_end = "17:30", "19:00"  # the digest's 18:00 is quiet
    session.commit()
    with time_machine.travel(ANN_DUE + MINUTE, tick=False):
        sweep(session)
        sweep(session)
    (row,) = digests(session, ann)
    assert row.game_id is None
    assert row.not_before == datetime(2026, 12, 1, 18, 0, tzinfo=UTC)  # 19:00 in Prague


def test_two_sweeps_at_once_send_one_digest(app, session, make_user):
    _, (ann, _bob) = season_for(session, make_user, ["Ann", "Bob"])
    ann.time_zone, ann.league_digest_day = PRAGUE, 1
    session.commit()
    start = threading.Barrier(2)

    def sweeper() -> None:
        with app.extensions["pbem.db"].session() as own:
            start.wait()
            send_league_digests(own, ANN_DUE + MINUTE)

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(digests(session, ann)) == 1


def test_the_sweep_starts_rounds_that_are_due_by_date(session, make_user):
    _, league, _ = league_of(session, make_user, ["Ann", "Bob", "Cem", "Dan"])
    with time_machine.travel(ANN_DUE, tick=False):
        season = start_season(session, league, pacing="rounds", round_days=7)
        session.commit()
    assert {g.round for g in season.games} == {1}
    sweep(session, ANN_DUE + timedelta(days=6))
    session.refresh(season)
    assert {g.round for g in season.games} == {1}
    sweep(session, ANN_DUE + timedelta(days=7, minutes=1))
    session.refresh(season)
    assert sorted(g.round for g in season.games) == [1, 1, 2, 2]
