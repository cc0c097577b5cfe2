"""No game mail in a player's quiet hours: a row queued inside them gets
`not_before` = their end, whatever part of the app queued it. The sender
leaves it until then and the beat's outbox sweep hands it on once due.

Answers to what the recipient is doing right now (a sign-in link, the answer
to their mail or to their turn) are sent at once: they are awake. So is an
invitation: the one who invited is waiting, and the invitee's time zone is
not known before they sign in."""

from __future__ import annotations

from datetime import datetime

from flask import Flask
from sqlalchemy import event
from sqlalchemy.orm import Session

from pbem.leagues import notices
from pbem.models import Outbox, User, utcnow
from pbem.services import notifications
from pbem.services.deadlines import out_of_quiet_hours

AT_ONCE = {
    notifications.SIGN_IN,
    notifications.INVITE,
    notices.LEAGUE_INVITE,
    notifications.MAIL_ANSWER,
    notifications.ACCEPTED,
    notifications.REJECTED,
}


def held_until(session: Session, row: Outbox, now: datetime) -> datetime | None:
    """When the row may go out, if not now: the end of its recipient's quiet hours."""
    if row.recipient_id is None or row.kind in AT_ONCE:
        return None
    with session.no_autoflush:
        user = session.get(User, row.recipient_id)
    if user is None:
        return None
    end = out_of_quiet_hours(now, user)
    return end if end > now else None


def is_held(row: Outbox, now: datetime) -> bool:
    return row.not_before is not None and row.not_before > now


def hold_in_quiet_hours(app: Flask) -> None:
    """Every outbox row any session of the app adds is checked before it is written."""
    sessions = app.extensions["pbem.db"].sessionmaker

    @event.listens_for(sessions, "before_flush")
    def _hold(session: Session, _context: object, _instances: object) -> None:
        now = utcnow()
        for row in session.new:
            if isinstance(row, Outbox) and row.not_before is None:
                row.not_before = held_until(session, row, now)
