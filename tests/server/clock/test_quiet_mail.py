"""Which mail waits for the end of quiet hours: everything about games, and
nothing the player is waiting for right now (the whole way over SMTP is in
tests/mail/test_quiet_hours.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pbem.services import notifications
from pbem.services.notifications import held_until

# 23:30 in Prague (UTC+1) on a Tuesday: Ann's quiet hours end at 08:00, 07:00 UTC.
NIGHT = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)
MORNING = datetime(2026, 12, 2, 7, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("kind", "held"),
    [
        (notifications.YOUR_TURN, True),
        (notifications.MOVED, True),
        (notifications.CHAT, True),
        (notifications.REMINDER, True),
        (notifications.TIMEOUT, True),
        (notifications.DIGEST, True),
        (notifications.SEAT_RESIGNED, True),
        (notifications.SIGN_IN, False),  # asked for this minute
        (notifications.INVITE, False),  # the inviter waits; the invitee's zone is unknown
        (notifications.MAIL_ANSWER, False),  # answers to what the player just did
        (notifications.ACCEPTED, False),
        (notifications.REJECTED, False),
    ],
)
def test_game_mail_waits_and_answers_do_not(session, make_user, kind, held):
    ann = make_user("Ann", quiet_hours="22:00-08:00")
    ann.time_zone = "Europe/Prague"
    assert held_until(kind, ann, NIGHT) == (MORNING if held else None)


def test_nothing_waits_outside_quiet_hours_or_without_them(session, make_user):
    ann = make_user("Ann", quiet_hours="22:00-08:00")
    ann.time_zone = "Europe/Prague"
    assert held_until(notifications.YOUR_TURN, ann, MORNING) is None
    ann.quiet_start = ann.quiet_end = None
    assert held_until(notifications.YOUR_TURN, ann, NIGHT) is None
    assert held_until(notifications.REFUSAL, None, NIGHT) is None
