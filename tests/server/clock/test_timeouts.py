"""Timeouts over the real pipeline: each rule (bot, forfeit, wait) in each
game, with the clock moved by time_machine, the sweep called directly and
the real worker thread judging what the timeouts submit."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from pbem.clock.time_control import TimeControl
from pbem.dispatch import enqueue_submissions
from pbem.models import Game, GameStatus, OnTimeout, Seat, utcnow
from pbem.services import notifications
from pbem.services.replay import engine_game
from pbem.services.submissions import submit
from tests.server.clock.helpers import (
    clocked_game,
    events_of_kind,
    moves_by_channel,
    outbox_rows,
    player,
    seat_of,
    sweep_now,
)
from tests.server.conftest import drain
from tests.server.pipeline_helpers import PALACE_TURN, judged, send

RULESETS = ["taluva", "java", "samurai"]


def first_to_act(session, game: Game) -> list[Seat]:  # type: ignore[no-untyped-def]
    session.expire_all()
    return [seat for seat in game.seats if seat.position in game.to_act]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bot_rule_a_bot_makes_the_late_move_and_the_player_keeps_the_seat(
    app, session, make_user, ruleset
):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(app, session, ruleset, [ann, bob], TimeControl(days_per_move=1))
    late = first_to_act(session, game)  # Samurai: both choose their tiles at once
    assert all(seat.timeout_at == seat.asked_at + timedelta(days=1) for seat in late)

    with time_machine.travel(late[0].timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
        sweep_now(app, session)  # nothing more to do
    assert len(events_of_kind(session, game, "timeout")) == len(late)

    late_positions = {seat.position for seat in late}
    moves = moves_by_channel(session, game)
    assert {channel for position, channel, _ in moves if position in late_positions} == {"clock"}
    assert {position for position, _, _ in moves} == late_positions
    game = session.get(Game, game.id)
    assert game.status == GameStatus.ACTIVE and game.to_act
    for seat in game.seats:
        assert seat.bot is None and seat.resigned_at is None and seat.user_id is not None
        asked = seat.position in game.to_act
        assert (seat.deadline is not None) == asked  # the next decision has its clock
    events = events_of_kind(session, game, "timeout")
    assert sorted(e.seat_position for e in events) == sorted(late_positions)
    assert events[0].text.endswith("A bot made this move for them; they keep their seat.")
    told = outbox_rows(session, game, notifications.TIMEOUT)
    assert len(told) == 2 * len(late)  # each player hears of each timeout


@pytest.mark.parametrize("ruleset", RULESETS)
def test_forfeit_rule_the_seat_is_resigned_and_a_bot_plays_it_on(app, session, make_user, ruleset):
    ann, bob, cat = (player(make_user, name) for name in ("Ann", "Bob", "Cat"))
    clock = TimeControl(days_per_move=1, on_timeout=OnTimeout.FORFEIT)
    game = clocked_game(app, session, ruleset, [ann, bob, cat], clock)
    late = first_to_act(session, game)

    with time_machine.travel(late[0].timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
        sweep_now(app, session)  # nothing more to do
    assert len(events_of_kind(session, game, "timeout")) == len(late)

    game = session.get(Game, game.id)
    for seat in late:
        session.refresh(seat)
        assert seat.resigned_at is not None and seat.bot == "random"
        assert seat.user_id is not None  # the seat still shows who lost it
        assert seat.asked_at is seat.deadline is seat.timeout_at is None
    late_positions = {seat.position for seat in late}
    moves = moves_by_channel(session, game)
    assert late_positions <= {position for position, _, _ in moves}
    assert {ch for pos, ch, _ in moves if pos in late_positions} == {"bot"}
    assert not late_positions & set(game.to_act)  # the bot finished the late decisions
    # The late player is told too, before leaving; a seat that left hears no more.
    told = outbox_rows(session, game, notifications.TIMEOUT)
    assert len(told) == sum(3 - earlier for earlier in range(len(late)))
    text = events_of_kind(session, game, "timeout")[0].text
    assert text.endswith("They lose their seat; a bot plays it to the end.")
    if len(late) == 3:  # Samurai: all three chose too late; the bots finished the game
        assert game.status == GameStatus.FINISHED


@pytest.mark.parametrize("ruleset", RULESETS)
def test_wait_rule_the_organiser_is_asked_and_nothing_is_played(app, session, make_user, ruleset):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=1, on_timeout=OnTimeout.WAIT)
    game = clocked_game(app, session, ruleset, [ann, bob], clock)
    late = first_to_act(session, game)
    to_act = list(game.to_act)

    with time_machine.travel(late[0].timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
    with time_machine.travel(late[0].timeout_at + timedelta(days=3), tick=True):
        sweep_now(app, session)  # never a second timeout

    assert moves_by_channel(session, game) == []
    game = session.get(Game, game.id)
    assert game.to_act == to_act and game.status == GameStatus.ACTIVE
    for seat in late:
        session.refresh(seat)
        assert seat.timed_out_at is not None and seat.bot is None
    organiser = outbox_rows(session, game, notifications.ORGANISER_TIMEOUT)
    assert [row.recipient_id for row in organiser] == [ann.id] * len(late)
    assert len(events_of_kind(session, game, "timeout")) == len(late)

    # The late player may still move while the organiser has not decided.
    played = engine_game(game)
    seat = late[0]
    move = played.state.format_move(played.state.legal_moves(seat.position)[0])
    assert judged(app, send(app, session, game, seat.position, move).id).status in (
        "accepted",
        "partial",
    )
    session.refresh(seat)
    assert seat.timed_out_at is None or seat.position in game.to_act


def test_a_java_turn_sent_in_parts_is_one_decision_with_one_deadline(app, session, make_user):
    """Ann (seat 1) lays her first tile an hour in; the turn goes on with the
    same deadline, and when it passes the bot finishes her turn."""
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(app, session, "java", [bob, ann], TimeControl(days_per_move=1))
    asked = seat_of(session, game, 1)
    asked_at, deadline = asked.asked_at, asked.deadline

    with time_machine.travel(asked_at + timedelta(hours=1), tick=True):
        assert judged(app, send(app, session, game, 1, PALACE_TURN[0]).id).status == "accepted"
    seat = seat_of(session, game, 1)
    assert (seat.asked_at, seat.deadline, seat.timeout_at) == (asked_at, deadline, deadline)

    with time_machine.travel(deadline + timedelta(minutes=1), tick=True):
        swept_at = utcnow()
        sweep_now(app, session)
    assert len(events_of_kind(session, game, "timeout")) == 1
    moves = moves_by_channel(session, game)
    assert moves[0] == (1, "api", PALACE_TURN[0])
    assert {(position, channel) for position, channel, _ in moves[1:]} == {(1, "clock")}
    assert moves[-1][2] == "end"
    assert session.get(Game, game.id).to_act == [0]
    bob_seat = seat_of(session, game, 0)
    assert swept_at <= bob_seat.asked_at <= swept_at + timedelta(seconds=30)
    assert seat_of(session, game, 1).asked_at is None


# Seats [Bob, Ann], seed test-seed: Ann builds a palace at B3, Bob enters the
# city, Ann holds a festival there and Bob, out of turn, must answer it. The
# bot that answers for him passes, which ends Ann's turn and begins Bob's.
BOB_ENTERS = ("village B5", "enter B5", "rice B6", "end")
ANN_HOLDS = ("rice B7", "festival B3 MP DP")


def test_a_java_festival_answer_times_out_alone(app, session, make_user):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(app, session, "java", [bob, ann], TimeControl(days_per_move=1))
    for position, turn in ((1, (*PALACE_TURN, "end")), (0, BOB_ENTERS), (1, ANN_HOLDS)):
        assert judged(app, send(app, session, game, position, "\n".join(turn)).id).status == (
            "accepted"
        )
    drain(app)
    session.expire_all()
    assert session.get(Game, game.id).to_act == [0]
    answering = seat_of(session, game, 0)
    assert engine_game(session.get(Game, game.id)).state.auction is not None
    assert seat_of(session, game, 1).asked_at is None  # Ann waits for the answer

    with time_machine.travel(answering.timeout_at + timedelta(minutes=1), tick=True):
        swept_at = utcnow()
        sweep_now(app, session)
    assert [e.seat_position for e in events_of_kind(session, game, "timeout")] == [0]
    clock_moves = [
        text for _, channel, text in moves_by_channel(session, game) if channel == "clock"
    ]
    assert clock_moves == ["pass"]  # the answer only: Bob's own turn is his to play
    game = session.get(Game, game.id)
    assert game.to_act == [0] and engine_game(game).state.auction is None
    bob_seat = seat_of(session, game, 0)
    assert swept_at <= bob_seat.asked_at <= swept_at + timedelta(seconds=30)
    assert bob_seat.timed_out_at is None
    assert bob_seat.deadline == bob_seat.asked_at + timedelta(days=1)


def test_samurai_opening_picks_are_separate_decisions(app, session, make_user):
    """All three choose at once; Ann chooses in time, Bob and Cat do not:
    Ann's pick neither moves nor ends their clocks, each times out alone."""
    ann, bob, cat = (player(make_user, name) for name in ("Ann", "Bob", "Cat"))
    game = clocked_game(app, session, "samurai", [ann, bob, cat], TimeControl(days_per_move=1))
    seats = [seat_of(session, game, position) for position in range(3)]
    assert game.to_act == [0, 1, 2]
    clocks = [(seat.asked_at, seat.timeout_at) for seat in seats]
    assert len(set(clocks)) == 1

    with time_machine.travel(clocks[0][0] + timedelta(hours=1), tick=True):
        played = engine_game(game)
        pick = played.state.format_move(played.state.legal_moves(0)[0])
        assert judged(app, send(app, session, game, 0, pick).id).status == "accepted"
    assert seat_of(session, game, 0).asked_at is None
    assert [
        (seat_of(session, game, p).asked_at, seat_of(session, game, p).timeout_at) for p in (1, 2)
    ] == clocks[1:]

    with time_machine.travel(clocks[0][1] + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
    by_seat = {}
    for position, channel, text in moves_by_channel(session, game)[:3]:
        by_seat[position] = (channel, text.split()[0])
    assert by_seat == {0: ("api", "choose"), 1: ("clock", "choose"), 2: ("clock", "choose")}
    assert sorted(e.seat_position for e in events_of_kind(session, game, "timeout")) == [1, 2]


def test_a_move_stored_before_the_timeout_but_not_yet_judged_is_not_overtaken(
    app, session, make_user
):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(app, session, "taluva", [ann, bob], TimeControl(days_per_move=1))
    seat = seat_of(session, game, 0)
    played = engine_game(game)
    turn = [played.state.format_move(played.state.legal_moves(0)[0])]
    played.play(0, turn[0])
    turn.append(played.state.format_move(played.state.legal_moves(0)[0]))

    with time_machine.travel(seat.timeout_at - timedelta(minutes=1), tick=True):
        stored = submit(session, seat, "\n".join(turn), channel="mail")  # no worker saw it yet
        session.commit()
    with time_machine.travel(seat.timeout_at + timedelta(hours=2), tick=True):
        sweep_now(app, session)
        with app.app_context():
            enqueue_submissions([stored.id])
        assert judged(app, stored.id).status == "accepted"
        sweep_now(app, session)
    assert moves_by_channel(session, game) == [(0, "mail", turn[0]), (0, "mail", turn[1])]
    assert events_of_kind(session, game, "timeout") == []
    assert session.get(Game, game.id).to_act == [1]
