"""Times as a reader sees them: in their own zone, with how far off they are,
like "Thu 26 Nov, 18:00 (in 2 days)"."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pbem.models import utcnow


def local_time(
    moment: datetime, zone: str, now: datetime | None = None, *, name_zone: bool = False
) -> str:
    """The moment in the reader's zone, then how long until or since it;
    `name_zone` for readers who may not know which zone it is (watchers: UTC)."""
    local = moment.astimezone(ZoneInfo(zone))
    named = f" {zone}" if name_zone else ""
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M}{named} ({relative(moment, now)})"


def relative(moment: datetime, now: datetime | None = None) -> str:
    """'in 2 days', 'in 5 hours', '3 minutes ago', 'now': rounded to the
    nearest unit, and hours up to two days, so 47 hours never reads '1 day'."""
    delta = moment - (now or utcnow())
    size = abs(delta).total_seconds()
    if size < 60:
        return "now"
    unit, seconds = next(
        (unit, seconds)
        for unit, seconds, from_size in (
            ("day", 86400, 2 * 86400),
            ("hour", 3600, 90 * 60),
            ("minute", 60, 0),
        )
        if size >= from_size
    )
    count = round(size / seconds)
    amount = f"{count} {unit}{'s' if count != 1 else ''}"
    return f"in {amount}" if delta > timedelta(0) else f"{amount} ago"


def duration(seconds: float) -> str:
    """A bank or extension in words: '5 days', '2 days 3 hours', '40 minutes'."""
    whole = timedelta(seconds=round(seconds))
    days, hours, minutes = whole.days, whole.seconds // 3600, whole.seconds % 3600 // 60
    parts = [
        f"{count} {unit}{'s' if count != 1 else ''}"
        for count, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))
        if count
    ]
    return " ".join(parts[:2]) or "nothing"
