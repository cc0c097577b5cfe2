"""Vacations and pauses stop a seat's clock: while one has not ended the seat
has no deadline and nothing times out; once it ends the deadline moves on by
its length. The stops are rows; recompute_user and recompute_game are what
the pages call after changing them."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine

from pbem.clock.sweep import sweep
from pbem.models import ClockStop, Game, OnTimeout
from pbem.services import notifications
from pbem.services.deadlines import recompute, recompute_game, recompute_user
from pbem.services.time_control import TimeControl
from tests.server.clock.helpers import (
    clocked_game,
    events_of_kind,
    outbox_rows,
    player,
    seat_of,
)


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def two_day_game(app, session, make_user, bank_days: int = 0) -> Game:
    """Ann is asked Mon 1 Jun 2026 09:00 UTC with 2 days: deadline Wed 09:00."""
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=2, bank_days=bank_days)
    with time_machine.travel(utc(2026, 6, 1, 9), tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], clock)
    assert seat_of(session, game, 0).deadline == utc(2026, 6, 3, 9)
    return game


def test_a_vacation_stops_the_clock_and_its_end_moves_the_deadline_on(app, session, make_user):
    game = two_day_game(app, session, make_user, bank_days=1)
    ann = seat_of(session, game, 0).user
    vacation = ClockStop(user_id=ann.id, started_at=utc(2026, 6, 2, 9))  # a day in
    session.add(vacation)
    recompute_user(session, ann)
    session.commit()
    seat = seat_of(session, game, 0)
    assert seat.deadline is None and seat.timeout_at is None
    sweep(session, utc(2026, 7, 1))  # a month on: still away, nothing times out
    assert events_of_kind(session, game, "timeout") == []

    vacation = session.get(ClockStop, vacation.id)
    vacation.ended_at = utc(2026, 6, 4, 9)  # back after two days: one day left
    recompute_user(session, ann)
    session.commit()
    seat = seat_of(session, game, 0)
    assert (seat.deadline, seat.timeout_at) == (utc(2026, 6, 5, 9), utc(2026, 6, 6, 9))


def test_a_pause_of_the_game_stops_every_clock_in_it(app, session, make_user):
    game = two_day_game(app, session, make_user)
    pause = ClockStop(game_id=game.id, started_at=utc(2026, 6, 1, 21), ended_at=utc(2026, 6, 2, 9))
    session.add(pause)
    recompute_game(session, session.get(Game, game.id))
    session.commit()
    seat = seat_of(session, game, 0)
    assert (seat.deadline, seat.timeout_at) == (utc(2026, 6, 3, 21), utc(2026, 6, 3, 21))
    assert seat_of(session, game, 1).deadline is None  # Bob is not asked for anything


def test_a_player_reminded_before_a_vacation_is_reminded_again_after_it(app, session, make_user):
    """Reminded Tue 10:00 for Wed 09:00; away Tue 12:00 to Thu 12:00, so the
    timeout is Fri 09:00 and a second reminder is due Thu 09:00, that is at
    the end of the vacation."""
    game = two_day_game(app, session, make_user)
    ann = seat_of(session, game, 0).user
    ann.reminder_hours = 24
    session.commit()
    sweep(session, utc(2026, 6, 2, 10))
    assert len(outbox_rows(session, game, notifications.REMINDER)) == 1
    session.add(
        ClockStop(user_id=ann.id, started_at=utc(2026, 6, 2, 12), ended_at=utc(2026, 6, 4, 12))
    )
    recompute_user(session, ann)
    session.commit()
    assert seat_of(session, game, 0).timeout_at == utc(2026, 6, 5, 9)
    for moment in (utc(2026, 6, 4, 12), utc(2026, 6, 4, 13)):
        sweep(session, moment)
    assert len(outbox_rows(session, game, notifications.REMINDER)) == 2


def test_a_waiting_decision_extended_by_the_organiser_times_out_again(app, session, make_user):
    """On timeout the game waits for its organiser, Ann, who gives the late
    seat (her own, here) two more days, as an extension is stored; when they
    are used up too she hears again."""
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=2, on_timeout=OnTimeout.WAIT)
    with time_machine.travel(utc(2026, 6, 1, 9), tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], clock)
    sweep(session, utc(2026, 6, 3, 10))
    seat = seat_of(session, game, 0)
    assert seat.timed_out_at == utc(2026, 6, 3, 10)

    seat.extra_seconds = 2 * 86400
    recompute(session, seat)
    session.commit()
    assert seat_of(session, game, 0).timeout_at == utc(2026, 6, 5, 9)
    sweep(session, utc(2026, 6, 4, 9))
    assert len(events_of_kind(session, game, "timeout")) == 1
    sweep(session, utc(2026, 6, 5, 10))
    sweep(session, utc(2026, 6, 5, 11))
    assert len(events_of_kind(session, game, "timeout")) == 2
    assert len(outbox_rows(session, game, notifications.ORGANISER_TIMEOUT)) == 2
