"""Times as a reader sees them: in their own zone and language, with how far
off they are, like "Thu 26 Nov, 18:00 (in 2 days)"."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from babel.dates import format_datetime, format_timedelta
from babel.units import format_unit
from flask_babel import gettext

from pbem.i18n import current_language
from pbem.models import utcnow

UNITS: tuple[tuple[Literal["day", "hour", "minute"], int], ...] = (
    ("day", 86400),
    ("hour", 3600),
    ("minute", 60),
)


def local_time(
    moment: datetime, zone: str, now: datetime | None = None, *, name_zone: bool = False
) -> str:
    """The moment in the reader's zone, then how long until or since it;
    `name_zone` for readers who may not know which zone it is (watchers: UTC)."""
    when = wall_clock(moment.astimezone(ZoneInfo(zone)))
    named = f" {zone}" if name_zone else ""
    return f"{when}{named} ({relative(moment, now)})"


def wall_clock(moment: datetime) -> str:
    """A time as it stands in its own zone, like "Thu 26 Nov, 18:00" ("jeu. 26 nov., 18:00")."""
    return format_datetime(moment, "EEE d MMM, HH:mm", locale=current_language())


def time_of_day(moment: datetime, with_day: bool) -> str:
    """A time as it stands in its own zone, like "14:05", or "Fri 02:05"
    ("ven. 02:05", "pá 02:05") `with_day`."""
    pattern = "EEE HH:mm" if with_day else "HH:mm"
    return format_datetime(moment, pattern, locale=current_language())


def relative(moment: datetime, now: datetime | None = None) -> str:
    """'in 2 days', 'in 5 hours', '3 minutes ago', 'now': rounded to the
    nearest unit, and hours up to two days, so 47 hours never reads '1 day'."""
    delta = moment - (now or utcnow())
    size = abs(delta).total_seconds()
    if size < 60:
        return gettext("now")
    unit, seconds = next(
        (unit, seconds)
        for (unit, seconds), from_size in zip(UNITS, (2 * 86400, 90 * 60, 0), strict=True)
        if size >= from_size
    )
    count = round(size / seconds)
    # Babel's own wording ("za 2 dny", "il y a 3 minutes"); a threshold of
    # exactly the count keeps it in the unit chosen above.
    signed = timedelta(seconds=count * seconds if delta > timedelta(0) else -count * seconds)
    return format_timedelta(
        signed, granularity=unit, threshold=count, add_direction=True, locale=current_language()
    )


def duration(seconds: float) -> str:
    """A bank or extension in words: '5 days', '2 days 3 hours', '40 minutes'."""
    whole = timedelta(seconds=round(seconds))
    counts = (whole.days, whole.seconds // 3600, whole.seconds % 3600 // 60)
    parts = [
        format_unit(count, f"duration-{unit}", length="long", locale=current_language())
        for count, (unit, _seconds) in zip(counts, UNITS, strict=True)
        if count
    ]
    return " ".join(parts[:2]) or gettext("nothing")
