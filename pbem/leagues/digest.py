"""The weekly league digest: once a week, on the player's chosen weekday at
their chosen local hour, one mail about every league season they play in now
(pbem.mail.league_text writes it). Each local week is claimed with a
conditional update of `users.league_digest_sent_on`, so two sweeps at once
(or one run twice) send one. Players without a season under way get none;
quiet hours hold it like any mail (pbem.mail.quiet_hours)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import lazy_gettext
from sqlalchemy import ColumnElement, exists, or_, select, update
from sqlalchemy.orm import Session

from pbem.db import rows_changed
from pbem.leagues import notices
from pbem.models import Season, SeasonEntrant, User

WEEKDAYS = (
    lazy_gettext("Monday"),
    lazy_gettext("Tuesday"),
    lazy_gettext("Wednesday"),
    lazy_gettext("Thursday"),
    lazy_gettext("Friday"),
    lazy_gettext("Saturday"),
    lazy_gettext("Sunday"),
)


def send_league_digests(session: Session, now: datetime) -> int:
    """Queue every league digest due now; commits. Returns how many were queued."""
    candidates = session.execute(
        select(User.id, User.time_zone, User.league_digest_day, User.league_digest_hour).where(
            User.league_digest_day.is_not(None),
            _not_claimed(now.date() + timedelta(days=1)),
            exists().where(_playing_now(User.id)),
        )
    ).all()
    sent = 0
    for user_id, zone, day, hour in candidates:
        local = now.astimezone(ZoneInfo(zone))
        if local.weekday() != day or local.hour < hour:
            continue
        week_start = local.date() - timedelta(days=local.weekday())
        claimed = session.execute(
            update(User)
            .where(User.id == user_id, User.league_digest_day == day, _not_claimed(week_start))
            .values(league_digest_sent_on=local.date())
            .execution_options(synchronize_session=False)
        )
        if rows_changed(claimed) == 1:
            notices.weekly_digest(session, user_id)
            sent += 1
        session.commit()
    return sent


def playing_now(session: Session, user: User) -> list[SeasonEntrant]:
    """The user's places in seasons under way (not withdrawn), by league name."""
    places = session.scalars(select(SeasonEntrant).where(_playing_now(user.id))).all()
    return sorted(places, key=lambda p: (p.season.league.name.casefold(), p.season.id))


def _playing_now(user_id: object) -> ColumnElement[bool]:
    return (
        (SeasonEntrant.user_id == user_id)
        & SeasonEntrant.withdrawn_at.is_(None)
        & SeasonEntrant.season_id.in_(select(Season.id).where(Season.finished_at.is_(None)))
    )


def _not_claimed(day: date) -> ColumnElement[bool]:
    """No league digest was sent on `day` or later."""
    return or_(User.league_digest_sent_on.is_(None), User.league_digest_sent_on < day)
