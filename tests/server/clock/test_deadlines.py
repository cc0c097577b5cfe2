"""Deadlines of real games, set when a seat is asked to act, with weekends off
and quiet hours across the 2026 DST changes (Prague: 29 March and 25 October;
New York: 8 March and 1 November). Every expected moment is worked out by
hand in the comments: local time first, then UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from pbem.services.games import SeatSpec, create_game, join_game
from pbem.services.time_control import TimeControl
from tests.server.clock.helpers import clocked_game, player, seat_of

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too

DEFAULT_QUIET = ("22:00", "08:00")


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def first_deadline(app, session, make_user, zone, quiet, asked, **clock):
    """Ann (in `zone`, with `quiet` hours) is asked for the first Taluva move at `asked`."""
    ann = player(make_user, "Ann", zone, quiet)
    bob = player(make_user, "Bob")
    with time_machine.travel(asked, tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], TimeControl(**clock))
    seat = seat_of(session, game, 0)
    assert seat.asked_at == asked
    return seat.deadline, seat.timeout_at


@pytest.mark.parametrize(
    ("zone", "asked", "deadline"),
    [
        # Fri 27 Mar 15:00 CET: 9 h to Saturday; Mon 30 Mar 00:00 CEST + 15 h
        # = Mon 15:00 CEST = 13:00 UTC (the weekend was 47 hours).
        ("Europe/Prague", utc(2026, 3, 27, 14), utc(2026, 3, 30, 13)),
        # Fri 23 Oct 15:00 CEST: Mon 26 Oct 15:00 CET = 14:00 UTC (49 hours).
        ("Europe/Prague", utc(2026, 10, 23, 13), utc(2026, 10, 26, 14)),
        # Fri 6 Mar 15:00 EST: Mon 9 Mar 15:00 EDT = 19:00 UTC.
        ("America/New_York", utc(2026, 3, 6, 20), utc(2026, 3, 9, 19)),
        # Fri 30 Oct 15:00 EDT: Mon 2 Nov 15:00 EST = 20:00 UTC.
        ("America/New_York", utc(2026, 10, 30, 19), utc(2026, 11, 2, 20)),
    ],
)
def test_a_day_asked_friday_afternoon_ends_monday_afternoon_across_dst(
    app, session, make_user, zone, asked, deadline
):
    clock = {"days_per_move": 1, "weekends_off": True}
    assert first_deadline(app, session, make_user, zone, DEFAULT_QUIET, asked, **clock) == (
        deadline,
        deadline,
    )


def test_the_bank_runs_after_the_own_days_and_skips_the_weekend_too(app, session, make_user):
    # Fri 23 Oct 15:00 CEST, 1 day + bank 3 days, weekends off: own day ends
    # Mon 26 Oct 15:00 CET (14:00 UTC); the bank Thu 29 Oct 15:00 CET (14:00 UTC).
    clock = {"days_per_move": 1, "bank_days": 3, "weekends_off": True}
    got = first_deadline(
        app, session, make_user, "Europe/Prague", DEFAULT_QUIET, utc(2026, 10, 23, 13), **clock
    )
    assert got == (utc(2026, 10, 26, 14), utc(2026, 10, 29, 14))


def test_a_day_across_the_spring_change_ends_an_hour_later_on_the_clock_then_in_quiet_hours(
    app, session, make_user
):
    # Sat 28 Mar 21:00 CET (20:00 UTC) + 24 h = Sun 20:00 UTC = 22:00 CEST: quiet,
    # so Mon 30 Mar 08:00 CEST = 06:00 UTC.
    got = first_deadline(
        app, session, make_user, "Europe/Prague", DEFAULT_QUIET, utc(2026, 3, 28, 20),
        days_per_move=1,
    )  # fmt: skip
    assert got == (utc(2026, 3, 30, 6), utc(2026, 3, 30, 6))


def test_a_day_across_the_autumn_change_ends_an_hour_earlier_on_the_clock_in_quiet_hours(
    app, session, make_user
):
    # Sat 31 Oct 07:30 EDT (11:30 UTC) + 24 h = Sun 1 Nov 11:30 UTC = 06:30 EST:
    # quiet until 08:00 EST = 13:00 UTC.
    got = first_deadline(
        app, session, make_user, "America/New_York", DEFAULT_QUIET, utc(2026, 10, 31, 11, 30),
        days_per_move=1,
    )  # fmt: skip
    assert got == (utc(2026, 11, 1, 13), utc(2026, 11, 1, 13))


def test_quiet_hours_ending_in_a_weekend_off_push_the_deadline_past_the_weekend(
    app, session, make_user
):
    """Thu 26 Mar 23:30 CET + 1 day = Fri 23:30 CET: quiet until Sat 08:00,
    which is in the weekend off; the weekend ends Mon 30 Mar 00:00 CEST, in
    quiet hours again: the deadline is Mon 08:00 CEST = 06:00 UTC."""
    clock = {"days_per_move": 1, "weekends_off": True}
    got = first_deadline(
        app, session, make_user, "Europe/Prague", DEFAULT_QUIET, utc(2026, 3, 26, 22, 30), **clock
    )
    assert got == (utc(2026, 3, 30, 6), utc(2026, 3, 30, 6))


def test_own_days_ending_as_the_weekend_begins_with_no_bank_time_out_then(app, session, make_user):
    # Wed 4 Mar 00:00 UTC + 3 days, weekends off = Sat 7 Mar 00:00: the
    # deadline; with no bank the timeout is the same moment, not Monday.
    got = first_deadline(
        app, session, make_user, "UTC", None, utc(2026, 3, 4), days_per_move=3, weekends_off=True
    )
    assert got == (utc(2026, 3, 7), utc(2026, 3, 7))


def test_with_a_bank_the_weekend_after_a_friday_midnight_deadline_does_not_count(
    app, session, make_user
):
    got = first_deadline(
        app, session, make_user, "UTC", None, utc(2026, 3, 4),
        days_per_move=3, bank_days=1, weekends_off=True,
    )  # fmt: skip
    assert got == (utc(2026, 3, 7), utc(2026, 3, 10))


def test_a_player_who_joins_an_open_seat_and_must_act_first_has_a_clock(app, session, make_user):
    """The seat had no user when the game was made; the game starts as Bob
    takes it, and his first decision runs on his own zone and quiet hours."""
    ann = player(make_user, "Ann")
    bob = player(make_user, "Bob", "America/New_York", DEFAULT_QUIET)
    # Sat 31 Oct 07:30 EDT + 24 h = Sun 1 Nov 06:30 EST: quiet until 08:00 EST.
    with time_machine.travel(utc(2026, 10, 31, 11, 30), tick=False):
        game = create_game(
            session, ann, "taluva", [SeatSpec(), SeatSpec(user=ann)],
            seed="test-seed", time_control=TimeControl(days_per_move=1),
        )  # fmt: skip
        session.commit()
        assert seat_of(session, game, 0).deadline is None
        join_game(session, game.public_id, bob, None)
        session.commit()
    seat = seat_of(session, game, 0)
    assert seat.user_id == bob.id
    assert (seat.asked_at, seat.deadline) == (utc(2026, 10, 31, 11, 30), utc(2026, 11, 1, 13))
