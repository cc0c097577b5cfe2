"""The daily digest: for players who chose it instead of a mail for each
turn, one mail a day at their chosen local hour listing every game waiting
for them. Each local day is claimed with a conditional update of
`users.digest_sent_on`, so two sweeps at once (or one run twice) send one."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.orm import Session

from pbem.db import rows_changed
from pbem.models import User
from pbem.services import notifications
from pbem.services.game_lists import seats_to_act


def send_digests(session: Session, now: datetime) -> int:
    """Queue every digest due now; commits. Returns how many were queued.

    A day whose hour has come is claimed even when nothing waits (no mail
    then): a turn that comes later that day waits for the next digest."""
    # No zone is more than a day ahead of UTC: a day claimed after that is today's or later.
    candidates = session.execute(
        select(User.id, User.time_zone, User.digest_hour).where(
            User.digest_hour.is_not(None),
            _not_claimed(now.date() + timedelta(days=1)),
        )
    ).all()
    sent = 0
    for user_id, zone, hour in candidates:
        assert hour is not None  # the query's condition
        local = now.astimezone(ZoneInfo(zone))
        if local.hour < hour:
            continue
        claimed = session.execute(
            update(User)
            .where(User.id == user_id, User.digest_hour == hour, _not_claimed(local.date()))
            .values(digest_sent_on=local.date())
            .execution_options(synchronize_session=False)
        )
        user = session.get_one(User, user_id)
        if rows_changed(claimed) == 1 and seats_to_act(session, user):
            notifications.notify_digest(session, user)
            sent += 1
        session.commit()
    return sent


def _not_claimed(day: date) -> ColumnElement[bool]:
    """No digest was sent on `day` or later."""
    return or_(User.digest_sent_on.is_(None), User.digest_sent_on < day)
