"""Time arithmetic for clocks, free of the database: counting only the time
that counts (not weekends in the player's zone, not vacations, not pauses)
and keeping deadlines out of quiet hours.

A "stop" is a span (start, end) in UTC in which a clock does not run; end None
means it has not ended yet, so a clock stopped by it has no deadline."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

Stop = tuple[datetime, datetime | None]
DAY = 86400


def local_midnight(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def weekends(zone: ZoneInfo, since: datetime) -> Iterator[Stop]:
    """Saturday 00:00 to Monday 00:00 local time, from the weekend holding or
    following `since`, for ever; a DST change makes one 47 or 49 hours long."""
    today = since.astimezone(zone).date()
    saturday = today - timedelta(days=today.weekday()) + timedelta(days=5)
    while True:
        yield local_midnight(saturday, zone), local_midnight(saturday + timedelta(days=2), zone)
        saturday += timedelta(days=7)


def merged(*sources: Iterable[Stop]) -> Iterator[Stop]:
    """Stops from sorted sources, in order, overlapping ones joined. A stop
    that has not ended swallows everything after it, so the walk ends there:
    a source may be endless (weekends), and a paused game's would otherwise
    be read to the last date there is."""
    current: tuple[datetime, datetime] | None = None
    for start, end in heapq.merge(*sources, key=lambda stop: stop[0]):
        if current is not None and start > current[1]:
            yield current
            current = None
        if end is None:
            yield (start if current is None else current[0]), None
            return
        current = (start, end) if current is None else (current[0], max(current[1], end))
    if current is not None:
        yield current


def advance(start: datetime, seconds: float, stops: Iterable[Stop]) -> datetime | None:
    """The first moment by which `seconds` of running time have passed since
    `start`; None if a stop that has not ended comes first. `stops` are sorted
    and do not overlap. With 0 seconds: `start` itself, unless a stop holds it
    (then that stop's end), so a deadline that falls just as a weekend begins
    stays put instead of moving past the weekend."""
    moment, left = start, float(seconds)
    for stop_start, stop_end in stops:
        if stop_end is not None and stop_end <= moment:
            continue
        if stop_start >= moment:
            running = (stop_start - moment).total_seconds()
            if running >= left:
                break
            left -= running
        if stop_end is None:
            return None
        moment = max(moment, stop_end)
    return moment + timedelta(seconds=left)


def counted(start: datetime, end: datetime, stops: Iterable[Stop]) -> float:
    """Seconds of running time from `start` to `end` (0 if end is not later)."""
    total, moment = 0.0, start
    for stop_start, stop_end in stops:
        if moment >= end:
            break
        if stop_end is not None and stop_end <= moment:
            continue
        if stop_start > moment:
            total += (min(stop_start, end) - moment).total_seconds()
        if stop_end is None:
            return total
        moment = max(moment, stop_end)
    if moment < end:
        total += (end - moment).total_seconds()
    return total


def parse_clock_time(text: str) -> time:
    """ "22:00" -> 22:00; a clear error for anything else."""
    try:
        hours, minutes = text.strip().split(":")
        return time(int(hours), int(minutes))
    except ValueError:
        raise ValueError(f"{text!r} is not a time of day like 22:00") from None


def quiet_until(moment: datetime, zone: ZoneInfo, start: time, end: time) -> datetime | None:
    """If `moment` falls in the quiet hours start-end (local, may wrap past
    midnight), the moment they end; None if it does not fall in them."""
    local = moment.astimezone(zone)
    now = local.time().replace(tzinfo=None)
    if not in_quiet_hours(now, start, end):
        return None
    day = local.date() if now < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tzinfo=zone).astimezone(UTC)


def in_quiet_hours(moment: time, start: time, end: time) -> bool:
    """Whether a local time of day falls in the quiet hours start-end (which
    may wrap past midnight; equal ends make none)."""
    if start == end:
        return False
    if start < end:
        return start <= moment < end
    return moment >= start or moment < end
