"""Vacations: a player stops their clocks in every game at once, for up to a
yearly allowance of days (PBEM_VACATION_DAYS).

A vacation is a ClockStop of the user (no game) from the moment it starts to
its planned end; coming back early moves the end to that moment. Deadlines
then follow from the stops (pbem.services.deadlines). The allowance counts per
calendar year in the player's own time zone: a vacation counts, whole, in the
year it starts, and every day begun counts as a day (a vacation of 7 days
ended after 2½ uses 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from pbem.db import lock_user
from pbem.i18n.times import local_time
from pbem.models import ClockStop, User
from pbem.services.calendar import DAY, local_midnight
from pbem.services.deadlines import recompute_user
from pbem.services.errors import Conflict, Invalid


@dataclass(frozen=True)
class VacationStatus:
    """A player's allowance this year and the vacation they are on, if any."""

    year: int
    allowance: int
    used: int
    started_at: datetime | None  # of the vacation going on now; None: not on vacation
    ends_at: datetime | None

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)

    @property
    def on_vacation(self) -> bool:
        return self.started_at is not None


def current(session: Session, user_id: int, now: datetime) -> ClockStop | None:
    """The user's vacation not over at `now`, if any. Its start is not
    compared: one started by a request that came a moment later, but got the
    user's lock first, overlaps all the same."""
    return session.scalar(
        select(ClockStop)
        .where(
            ClockStop.user_id == user_id,
            ClockStop.game_id.is_(None),
            or_(ClockStop.ended_at.is_(None), ClockStop.ended_at > now),
        )
        .order_by(ClockStop.started_at.desc())
        .limit(1)
    )


def status(session: Session, user: User, allowance: int, now: datetime) -> VacationStatus:
    year = now.astimezone(ZoneInfo(user.time_zone)).year
    going_on = current(session, user.id, now)
    return VacationStatus(
        year=year,
        allowance=allowance,
        used=days_used(session, user, year, now),
        started_at=going_on.started_at if going_on else None,
        ends_at=going_on.ended_at if going_on else None,
    )


def days_used(session: Session, user: User, year: int, now: datetime) -> int:
    """Vacation days of the local calendar year `year`, every day begun counted."""
    zone = ZoneInfo(user.time_zone)
    starts = local_midnight(date(year, 1, 1), zone), local_midnight(date(year + 1, 1, 1), zone)
    rows = session.scalars(
        select(ClockStop).where(
            ClockStop.user_id == user.id,
            ClockStop.game_id.is_(None),
            ClockStop.started_at >= starts[0],
            ClockStop.started_at < starts[1],
        )
    )
    return sum(
        math.ceil(max(0.0, ((row.ended_at or now) - row.started_at).total_seconds()) / DAY)
        for row in rows
    )


def start(session: Session, user: User, days: int, allowance: int, now: datetime) -> ClockStop:
    """Stop the user's clocks for `days` days from now; the caller commits.
    Invalid for a number of days outside what is left, Conflict while a
    vacation is going on."""
    user = lock_user(session, user.id)
    going_on = current(session, user.id, now)
    if going_on is not None:
        if going_on.ended_at is None:
            raise Conflict(_("you are on vacation already; end it first to start another"))
        until = local_time(going_on.ended_at, user.time_zone, now)
        raise Conflict(
            _(
                "you are on vacation until %(until)s already; end it first to start another",
                until=until,
            )
        )
    left = status(session, user, allowance, now).left
    if left == 0:
        raise Invalid(
            ngettext(
                "you have no vacation days left this year (your %(num)s day is used)",
                "you have no vacation days left this year (all %(num)s are used)",
                allowance,
            )
            if allowance
            else _("vacations are not offered on this server")
        )
    if not 1 <= days <= left:
        raise Invalid(
            ngettext(
                "a vacation lasts 1 to %(num)s day (you have %(num)s left this year)",
                "a vacation lasts 1 to %(num)s days (you have %(num)s left this year)",
                left,
            )
        )
    vacation = ClockStop(user_id=user.id, started_at=now, ended_at=now + timedelta(days=days))
    session.add(vacation)
    recompute_user(session, user)
    return vacation


def end(session: Session, user: User, now: datetime) -> ClockStop:
    """Come back now: the user's clocks run again; the caller commits."""
    user = lock_user(session, user.id)
    going_on = current(session, user.id, now)
    if going_on is None:
        raise Conflict(_("you are not on vacation"))
    going_on.ended_at = max(now, going_on.started_at)
    recompute_user(session, user)
    return going_on
