"""The bank: drawn once a decision's own days are used, and what is used is
gone. Moves go through the real worker at travelled times, so the bank left
is exact up to the seconds the worker takes (SLACK)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine

from pbem.models import Game
from pbem.services.replay import engine_game
from pbem.services.time_control import TimeControl
from tests.server.clock.helpers import clocked_game, events_of_kind, player, seat_of, sweep_now
from tests.server.pipeline_helpers import hand_on, judged, lost_submission, send

DAY, HOUR = 86400, 3600
SLACK = 60  # seconds between travelling and the worker judging the move


def whole_taluva_turn(session, game: Game, position: int) -> str:
    session.expire_all()
    played = engine_game(session.get(Game, game.id))
    turn = [played.state.format_move(played.state.legal_moves(position)[0])]
    played.play(position, turn[0])
    turn.append(played.state.format_move(played.state.legal_moves(position)[0]))
    return "\n".join(turn)


def play_turn(app, session, game: Game, position: int) -> None:
    turn = whole_taluva_turn(session, game, position)
    assert judged(app, send(app, session, game, position, turn).id).status == "accepted"


def test_a_late_move_spends_the_bank_and_the_next_decision_has_what_is_left(
    app, session, make_user
):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=1, bank_days=2)
    game = clocked_game(app, session, "taluva", [ann, bob], clock)
    seat = seat_of(session, game, 0)
    assert seat.bank_seconds == 2 * DAY
    assert seat.timeout_at == seat.deadline + timedelta(days=2)

    with time_machine.travel(seat.deadline + timedelta(hours=6), tick=True):
        play_turn(app, session, game, 0)  # six hours into the bank
        seat = seat_of(session, game, 0)
        assert 2 * DAY - 6 * HOUR - SLACK <= seat.bank_seconds <= 2 * DAY - 6 * HOUR
        assert seat.asked_at is seat.deadline is seat.timeout_at is None
        play_turn(app, session, game, 1)  # Bob at once: no bank spent
    assert seat_of(session, game, 1).bank_seconds == 2 * DAY

    seat = seat_of(session, game, 0)  # Ann's next decision
    assert seat.deadline == seat.asked_at + timedelta(days=1)
    assert seat.timeout_at == seat.deadline + timedelta(seconds=seat.bank_seconds)


def test_a_timeout_uses_the_whole_bank_and_the_next_decision_has_none(app, session, make_user):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=1, bank_days=1)
    game = clocked_game(app, session, "taluva", [ann, bob], clock)
    late = seat_of(session, game, 0)
    with time_machine.travel(late.timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
        play_turn(app, session, game, 1)
    assert len(events_of_kind(session, game, "timeout")) == 1
    seat = seat_of(session, game, 0)
    assert seat.bank_seconds == 0
    assert seat.timeout_at == seat.deadline == seat.asked_at + timedelta(days=1)


def test_with_no_bank_the_deadline_is_the_timeout_and_a_late_move_before_the_sweep_stands(
    app, session, make_user
):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(app, session, "taluva", [ann, bob], TimeControl(days_per_move=1))
    seat = seat_of(session, game, 0)
    assert seat.timeout_at == seat.deadline
    with time_machine.travel(seat.deadline + timedelta(hours=1), tick=True):
        play_turn(app, session, game, 0)  # late, but no sweep came first
    assert seat_of(session, game, 0).bank_seconds == 0
    assert events_of_kind(session, game, "timeout") == []
    assert session.get(Game, game.id).to_act == [1]


def test_the_bank_is_not_spent_over_a_weekend_off(app, session, make_user):
    """Asked Thu 5 Mar 2026 12:00 UTC with 1 day and a bank of 3, weekends
    off: the deadline is Fri 12:00, the timeout Wed 11 Mar 12:00 (12 h on
    Friday, then Monday 00:00 + 60 h). A move on Monday at 06:00 spends the
    12 hours of Friday and 6 of Monday: 18 hours, not the weekend's 48 more."""
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=1, bank_days=3, weekends_off=True)
    with time_machine.travel(datetime(2026, 3, 5, 12, tzinfo=UTC), tick=False):
        game = clocked_game(app, session, "taluva", [ann, bob], clock)
    seat = seat_of(session, game, 0)
    assert seat.deadline == datetime(2026, 3, 6, 12, tzinfo=UTC)
    assert seat.timeout_at == datetime(2026, 3, 11, 12, tzinfo=UTC)

    with time_machine.travel(datetime(2026, 3, 9, 6, tzinfo=UTC), tick=True):
        play_turn(app, session, game, 0)
    left = seat_of(session, game, 0).bank_seconds
    assert 3 * DAY - 18 * HOUR - SLACK <= left <= 3 * DAY - 18 * HOUR


def test_a_move_stored_late_is_charged_until_it_was_stored_not_until_it_was_judged(
    app, session, make_user
):
    """Ann's turn is stored an hour into her bank; the worker only gets to it
    nine hours later (a broker outage): she pays the hour, not ten."""
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=1, bank_days=2)
    game = clocked_game(app, session, "taluva", [ann, bob], clock)
    seat = seat_of(session, game, 0)
    with time_machine.travel(seat.deadline + timedelta(hours=1), tick=True):
        stored = lost_submission(session, seat, whole_taluva_turn(session, game, 0), "mail")
        session.commit()
    with time_machine.travel(seat.deadline + timedelta(hours=10), tick=True):
        hand_on(app, stored.id)
        assert judged(app, stored.id).status == "accepted"
    left = seat_of(session, game, 0).bank_seconds
    assert 2 * DAY - HOUR - SLACK <= left <= 2 * DAY - HOUR
