"""The clock's mails as their readers get them: composed from the outbox rows
the sweep queued, the times in each reader's own zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.mail.compose import compose
from pbem.models import OnTimeout, Outbox, Submission
from pbem.services import notifications
from pbem.services.time_control import TimeControl
from tests.mail.helpers import text_of
from tests.server.clock.helpers import clocked_game, outbox_rows, player, seat_of
from tests.server.conftest import drain

# Fri 27 Mar 2026 15:00 CET; 1 day per move, weekends off: the timeout is
# Mon 30 Mar 15:00 CEST = 13:00 UTC (the weekend across the DST change is 47 h).
ASKED = datetime(2026, 3, 27, 14, tzinfo=UTC)
TIMEOUT = datetime(2026, 3, 30, 13, tzinfo=UTC)


def mail_text(app, session, row: Outbox) -> tuple[str, str]:
    message = compose(session, row, app.config)
    return message["Subject"], text_of(message)


def start(app, session, make_user, on_timeout: OnTimeout):
    ann = player(make_user, "Ann", "Europe/Prague", reminder_hours=24)
    bob = player(make_user, "Bob", "America/New_York")
    clock = TimeControl(days_per_move=1, weekends_off=True, on_timeout=on_timeout)
    with time_machine.travel(ASKED, tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], clock)
    assert seat_of(session, game, 0).timeout_at == TIMEOUT
    return game


def test_the_reminder_gives_the_timeout_in_the_players_zone(app, session, make_user):
    game = start(app, session, make_user, OnTimeout.BOT)
    with time_machine.travel(TIMEOUT - timedelta(hours=25), tick=False):
        sweep(session)
        assert outbox_rows(session, game, notifications.REMINDER) == []
    with time_machine.travel(TIMEOUT - timedelta(hours=23), tick=False):
        sweep(session)
        sweep(session)
        [row] = outbox_rows(session, game, notifications.REMINDER)
        subject, text = mail_text(app, session, row)
    assert row.recipient.name == "Ann"
    assert subject.endswith(": reminder")
    assert "Reminder: your move is due by Mon 30 Mar, 15:00 (in 23 hours)." in text
    assert "If it is not made by then, a bot plays that move." in text


def test_a_one_day_move_is_reminded_halfway_not_with_the_your_turn_mail(app, session, make_user):
    """A 24-hour reminder for a 1-day move: due at once by the hours alone."""
    ann, bob = player(make_user, "Ann", reminder_hours=24), player(make_user, "Bob")
    with time_machine.travel(datetime(2026, 5, 5, 9, tzinfo=UTC), tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], TimeControl(days_per_move=1))
        sweep(session)
        assert outbox_rows(session, game, notifications.REMINDER) == []
    with time_machine.travel(datetime(2026, 5, 5, 20, 59, tzinfo=UTC), tick=False):
        sweep(session)
        assert outbox_rows(session, game, notifications.REMINDER) == []
    with time_machine.travel(datetime(2026, 5, 5, 21, tzinfo=UTC), tick=False):
        sweep(session)
        assert len(outbox_rows(session, game, notifications.REMINDER)) == 1


def test_the_timeout_mail_to_the_late_player_and_to_the_others(app, session, make_user):
    game = start(app, session, make_user, OnTimeout.BOT)
    with time_machine.travel(TIMEOUT + timedelta(minutes=5), tick=False):
        sweep(session)
        drain(app)  # the stand-in thinks on the bots' queue, then everyone is told
    rows = {row.recipient.name: row for row in outbox_rows(session, game, notifications.TIMEOUT)}
    late_subject, to_late = mail_text(app, session, rows["Ann"])
    other_subject, to_other = mail_text(app, session, rows["Bob"])
    assert late_subject.endswith(": timeout of Ann") and other_subject == late_subject
    assert "Timeout: You ran out of time. A bot made this move for you; you keep your seat." in (
        to_late
    )
    assert (
        "Timeout: Ann ran out of time. A bot made this move for them; they keep their seat."
        in to_other
    )
    # Ann reads which move the bot made for her (Bob sees it in the game as usual).
    made = session.scalar(select(Submission.raw_text).where(Submission.game_id == game.id))
    listed = to_late.split("The bot played:\n", 1)[1].split("\n\n", 1)[0]
    assert made and listed.splitlines() == [f"  {move}" for move in made.splitlines()]
    assert "The bot played" not in to_other


def test_the_forfeit_and_the_organisers_mails(app, session, make_user):
    game = start(app, session, make_user, OnTimeout.FORFEIT)
    with time_machine.travel(TIMEOUT + timedelta(minutes=5), tick=False):
        sweep(session)
    rows = {row.recipient.name: row for row in outbox_rows(session, game, notifications.TIMEOUT)}
    assert (
        "You lose your seat and rank last; a bot plays it to the end."
        in mail_text(app, session, rows["Ann"])[1]
    )
    assert (
        "They lose their seat and rank last; a bot plays it to the end."
        in mail_text(app, session, rows["Bob"])[1]
    )

    waiting = start(app, session, make_user, OnTimeout.WAIT)
    with time_machine.travel(TIMEOUT + timedelta(minutes=5), tick=False):
        sweep(session)
    [row] = outbox_rows(session, waiting, notifications.ORGANISER_TIMEOUT)
    subject, text = mail_text(app, session, row)
    assert subject == f"Timeout in {waiting.title}: you decide"  # its title, not its id
    assert f"Ann ran out of time in your Taluva game {waiting.title}." in text


def test_a_reminder_due_in_quiet_hours_waits_for_their_end(app, session, make_user):
    """Asked Tue 5 May 2026 22:30 CEST with 2 days: the timeout, Thu 22:30,
    is quiet, so Fri 8 May 08:00 CEST (06:00 UTC). A 30-hour reminder is due
    halfway, Thu 7 May 03:15 CEST (01:15 UTC), which is quiet: it goes at
    08:00 CEST (06:00 UTC)."""
    ann = player(make_user, "Ann", "Europe/Prague", ("22:00", "08:00"), reminder_hours=30)
    bob = player(make_user, "Bob")
    with time_machine.travel(datetime(2026, 5, 5, 20, 30, tzinfo=UTC), tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], TimeControl(days_per_move=2))
    assert seat_of(session, game, 0).timeout_at == datetime(2026, 5, 8, 6, tzinfo=UTC)
    with time_machine.travel(datetime(2026, 5, 7, 5, 59, tzinfo=UTC), tick=False):
        sweep(session)
        assert outbox_rows(session, game, notifications.REMINDER) == []
    with time_machine.travel(datetime(2026, 5, 7, 6, tzinfo=UTC), tick=False):
        sweep(session)
        assert len(outbox_rows(session, game, notifications.REMINDER)) == 1
