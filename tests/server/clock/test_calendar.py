"""pbem.services.calendar: the pure time arithmetic under every deadline.

Expected moments are worked out by hand in the comments, in local time and
in UTC, around the 2026 DST changes: Prague switches on the last Sundays of
March (29th) and October (25th), New York on the second Sunday of March (8th)
and the first Sunday of November (1st)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from itertools import islice, pairwise
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.services.calendar import (
    advance,
    counted,
    merged,
    parse_clock_time,
    quiet_until,
    weekends,
)

# The server tests' worker thread may draw on `random` while Hypothesis
# generates examples here; that is no fault of these strategies.
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")

PRAGUE, NEW_YORK = ZoneInfo("Europe/Prague"), ZoneInfo("America/New_York")
HOUR = 3600


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "since", "saturday", "monday", "hours"),
    [
        # Sat 28 Mar 00:00 CET .. Mon 30 Mar 00:00 CEST: an hour is skipped.
        (PRAGUE, utc(2026, 3, 27, 12), utc(2026, 3, 27, 23), utc(2026, 3, 29, 22), 47),
        # Sat 24 Oct 00:00 CEST .. Mon 26 Oct 00:00 CET: an hour is lived twice.
        (PRAGUE, utc(2026, 10, 23, 12), utc(2026, 10, 23, 22), utc(2026, 10, 25, 23), 49),
        # Sat 7 Mar 00:00 EST .. Mon 9 Mar 00:00 EDT.
        (NEW_YORK, utc(2026, 3, 6, 12), utc(2026, 3, 7, 5), utc(2026, 3, 9, 4), 47),
        # Sat 31 Oct 00:00 EDT .. Mon 2 Nov 00:00 EST.
        (NEW_YORK, utc(2026, 10, 30, 12), utc(2026, 10, 31, 4), utc(2026, 11, 2, 5), 49),
    ],
)
def test_a_weekend_runs_from_local_saturday_to_local_monday_across_dst(
    zone, since, saturday, monday, hours
):
    first = next(weekends(zone, since))
    assert first == (saturday, monday)
    assert (monday - saturday) == timedelta(hours=hours)


def test_weekends_start_with_the_one_holding_the_moment_then_follow_weekly():
    sunday_noon = utc(2026, 3, 29, 10)  # Sunday 12:00 CEST in Prague
    found = list(islice(weekends(PRAGUE, sunday_noon), 3))
    assert found[0] == (utc(2026, 3, 27, 23), utc(2026, 3, 29, 22))
    assert found[1] == (utc(2026, 4, 3, 22), utc(2026, 4, 5, 22))  # summer time both ends
    assert found[2][0] - found[1][0] == timedelta(days=7)


def test_merged_joins_overlapping_and_touching_stops_and_keeps_order():
    a = [(utc(2026, 1, 1), utc(2026, 1, 3)), (utc(2026, 1, 10), utc(2026, 1, 11))]
    b = [(utc(2026, 1, 2), utc(2026, 1, 4)), (utc(2026, 1, 4), utc(2026, 1, 5))]
    assert list(merged(a, b)) == [
        (utc(2026, 1, 1), utc(2026, 1, 5)),
        (utc(2026, 1, 10), utc(2026, 1, 11)),
    ]


def test_merged_stop_that_has_not_ended_swallows_everything_after_it():
    a = [(utc(2026, 1, 1), None)]
    b = [(utc(2026, 1, 2), utc(2026, 1, 3)), (utc(2026, 2, 1), utc(2026, 2, 2))]
    assert list(merged(a, b)) == [(utc(2026, 1, 1), None)]
    assert list(merged([], [])) == []


def test_merged_ends_at_a_stop_that_has_not_ended_even_before_endless_weekends():
    """A paused game whose clock keeps weekends off: the pause swallows every
    weekend after it, so the walk ends there instead of running to year 9999."""
    paused = utc(2026, 3, 4, 15)
    assert list(islice(merged([(paused, None)], weekends(PRAGUE, paused)), 2)) == [(paused, None)]
    asked = paused - timedelta(hours=6)
    assert advance(asked, 86400, merged([(paused, None)], weekends(PRAGUE, asked))) is None


def test_advance_skips_stops_and_stops_at_one_that_has_not_ended():
    stops = [(utc(2026, 1, 2), utc(2026, 1, 4)), (utc(2026, 1, 10), None)]
    assert advance(utc(2026, 1, 1), 2 * 86400, stops) == utc(2026, 1, 5)
    assert advance(utc(2026, 1, 1), 7 * 86400, stops) == utc(2026, 1, 10)
    assert advance(utc(2026, 1, 1), 7 * 86400 + 1, stops) is None
    assert advance(utc(2026, 1, 3), HOUR, stops) == utc(2026, 1, 4, 1)  # starts in a stop


def test_advance_by_nothing_stays_put_unless_a_stop_holds_the_moment():
    """A deadline just as a weekend begins (Friday midnight) with a bank of 0
    times out then, not on Monday."""
    weekend = [(utc(2026, 3, 7), utc(2026, 3, 9))]
    assert advance(utc(2026, 3, 7), 0, weekend) == utc(2026, 3, 7)
    assert advance(utc(2026, 3, 6), 0, weekend) == utc(2026, 3, 6)
    assert advance(utc(2026, 3, 8), 0, weekend) == utc(2026, 3, 9)


def test_one_day_asked_friday_afternoon_in_prague_ends_monday_afternoon_across_dst():
    # Fri 27 Mar 15:00 CET (14:00 UTC): 9 hours to Saturday, then Monday
    # 00:00 CEST (Sun 22:00 UTC) + 15 hours = Mon 15:00 CEST (13:00 UTC).
    asked = utc(2026, 3, 27, 14)
    deadline = advance(asked, 86400, weekends(PRAGUE, asked))
    assert deadline == utc(2026, 3, 30, 13)
    assert deadline.astimezone(PRAGUE).time() == time(15)
    assert counted(asked, deadline, weekends(PRAGUE, asked)) == 86400


def test_one_day_asked_friday_afternoon_in_new_york_ends_monday_afternoon_across_dst():
    # Fri 30 Oct 15:00 EDT (19:00 UTC): 9 hours to Saturday 04:00 UTC, then
    # Monday 00:00 EST (05:00 UTC) + 15 hours = Mon 15:00 EST (20:00 UTC).
    asked = utc(2026, 10, 30, 19)
    assert advance(asked, 86400, weekends(NEW_YORK, asked)) == utc(2026, 11, 2, 20)


def test_counted_leaves_out_stops_and_stops_at_one_that_has_not_ended():
    stops = [(utc(2026, 1, 2), utc(2026, 1, 4)), (utc(2026, 1, 10), None)]
    assert counted(utc(2026, 1, 1), utc(2026, 1, 5), stops) == 2 * 86400
    assert counted(utc(2026, 1, 3), utc(2026, 1, 4, 6), stops) == 6 * HOUR
    assert counted(utc(2026, 1, 1), utc(2026, 2, 1), stops) == 7 * 86400
    assert counted(utc(2026, 1, 5), utc(2026, 1, 1), stops) == 0


def test_counted_over_a_whole_prague_weekend_in_march_counts_nothing():
    friday_midnight, monday_midnight = utc(2026, 3, 27, 23), utc(2026, 3, 29, 22)
    assert counted(friday_midnight, monday_midnight, weekends(PRAGUE, friday_midnight)) == 0


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (utc(2026, 1, 14, 20, 59), None),  # 21:59 CET: not yet
        (utc(2026, 1, 14, 21), utc(2026, 1, 15, 7)),  # 22:00 .. 08:00 next day
        (utc(2026, 1, 14, 23, 30), utc(2026, 1, 15, 7)),  # after midnight
        (utc(2026, 1, 15, 6, 59), utc(2026, 1, 15, 7)),  # 07:59
        (utc(2026, 1, 15, 7), None),  # 08:00: over
    ],
)
def test_quiet_hours_wrap_past_midnight(moment, expected):
    assert quiet_until(moment, PRAGUE, time(22), time(8)) == expected


def test_quiet_hours_within_one_day():
    # 12:00-14:00 CET is 11:00-13:00 UTC.
    assert quiet_until(utc(2026, 1, 14, 11), PRAGUE, time(12), time(14)) == utc(2026, 1, 14, 13)
    assert quiet_until(utc(2026, 1, 14, 10, 59), PRAGUE, time(12), time(14)) is None
    assert quiet_until(utc(2026, 1, 14, 13), PRAGUE, time(12), time(14)) is None


def test_quiet_hours_starting_and_ending_at_the_same_time_are_none():
    """Not 'quiet all day', which would keep a deadline away for ever."""
    for hour in range(24):
        assert quiet_until(utc(2026, 1, 14, hour), PRAGUE, time(8), time(8)) is None


def test_quiet_hours_end_in_local_time_on_the_night_the_clocks_change():
    # Spring: Sat 28 Mar 23:00 CET is quiet until Sun 08:00 CEST = 06:00 UTC.
    assert quiet_until(utc(2026, 3, 28, 22), PRAGUE, time(22), time(8)) == utc(2026, 3, 29, 6)
    # Autumn: Sat 24 Oct 23:00 CEST is quiet until Sun 08:00 CET = 07:00 UTC.
    assert quiet_until(utc(2026, 10, 24, 21), PRAGUE, time(22), time(8)) == utc(2026, 10, 25, 7)
    # New York, spring: Sat 7 Mar 23:00 EST until Sun 08:00 EDT = 12:00 UTC.
    assert quiet_until(utc(2026, 3, 8, 4), NEW_YORK, time(22), time(8)) == utc(2026, 3, 8, 12)


def test_parse_clock_time_reads_hh_mm_and_refuses_the_rest():
    assert parse_clock_time(" 07:30 ") == time(7, 30)
    for bad in ("7", "25:00", "ab:cd", "07:30:00"):
        with pytest.raises(ValueError, match="is not a time of day like 22:00"):
            parse_clock_time(bad)


# -- properties ------------------------------------------------------------

BASE = utc(2026, 1, 1)
offsets = st.integers(min_value=0, max_value=60 * 86400)


@st.composite
def closed_stops(draw: st.DrawFn) -> list[tuple[datetime, datetime]]:
    """Sorted, non-overlapping stops that have all ended, in whole seconds."""
    moment, stops = BASE, []
    for gap, length in draw(st.lists(st.tuples(offsets, offsets), max_size=6)):
        start = moment + timedelta(seconds=gap // 4)
        end = start + timedelta(seconds=length // 4 + 1)
        stops.append((start, end))
        moment = end
    return stops


@given(closed_stops(), offsets, offsets)
def test_advance_then_count_gives_back_the_seconds(stops, start, seconds):
    begin = BASE + timedelta(seconds=start)
    end = advance(begin, seconds, stops)
    assert end is not None and end >= begin
    assert counted(begin, end, stops) == seconds
    if seconds:  # the first such moment: a second earlier is not enough
        assert counted(begin, end - timedelta(seconds=1), stops) < seconds


@given(closed_stops(), offsets, offsets, offsets)
def test_counted_adds_up_over_consecutive_spans(stops, a, b, c):
    first, middle, last = sorted(BASE + timedelta(seconds=s) for s in (a, b, c))
    assert counted(first, middle, stops) + counted(middle, last, stops) == counted(
        first, last, stops
    )


@given(st.lists(closed_stops(), min_size=1, max_size=3), offsets)
def test_merged_stops_cover_what_their_sources_cover(sources, probe):
    moment = BASE + timedelta(seconds=probe)
    joined = list(merged(*sources))
    assert all(end < start for (_, end), (start, _) in pairwise(joined))
    covered = any(start <= moment < end for source in sources for start, end in source)
    assert covered == any(start <= moment < end for start, end in joined)


@given(st.sampled_from([PRAGUE, NEW_YORK]), st.integers(min_value=0, max_value=366 * 86400))
def test_each_weekend_is_local_saturday_to_local_monday(zone, probe):
    saturday, monday = next(weekends(zone, BASE + timedelta(seconds=probe)))
    local_start, local_end = saturday.astimezone(zone), monday.astimezone(zone)
    assert (local_start.weekday(), local_start.time()) == (5, time(0))
    assert (local_end.weekday(), local_end.time()) == (0, time(0))
    assert local_end.date() - local_start.date() == timedelta(days=2)
    assert monday > BASE + timedelta(seconds=probe)
