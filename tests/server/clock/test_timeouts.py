"""Timeouts over the real pipeline: each rule (bot, forfeit, wait) in each
game, with the clock moved by time_machine, the sweep called directly and
the real worker thread judging what the timeouts submit."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from sqlalchemy import select, update

from pbem.models import Game, GameStatus, Move, OnTimeout, Outbox, Seat, utcnow
from pbem.services import notifications
from pbem.services.replay import engine_game, verify_game
from pbem.services.time_control import TimeControl
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
from tests.server.pipeline_helpers import (
    FESTIVAL_AFTER_A_DRAW,
    PALACE_TURN,
    hand_on,
    judged,
    lost_submission,
    send,
)

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too

RULESETS = ["taluva", "java", "samurai"]


def first_to_act(session, game: Game) -> list[Seat]:
    session.expire_all()
    return [seat for seat in game.seats if seat.position in game.to_act]


def play_first_legal(app, session, game: Game, position: int) -> str:
    session.expire_all()
    played = engine_game(session.get(Game, game.id))
    move = played.state.format_move(played.state.legal_moves(position)[0])
    assert judged(app, send(app, session, game, position, move).id).status == "accepted"
    return move


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_timeout_rule_over_the_real_pipeline(app, session, make_user, ruleset):
    """Three games of the ruleset, one per rule, time out in the same sweeps."""
    games, late = {}, {}
    for rule in OnTimeout:
        ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
        clock = TimeControl(days_per_move=1, on_timeout=rule)
        games[rule] = clocked_game(app, session, ruleset, [ann, bob], clock)
        late[rule] = first_to_act(session, games[rule])  # Samurai: both choose at once
    if ruleset == "samurai":  # in the forfeit game Bob chooses in time: only Ann is late
        play_first_legal(app, session, games[OnTimeout.FORFEIT], 1)
        late[OnTimeout.FORFEIT] = late[OnTimeout.FORFEIT][:1]
    due = max(seat.timeout_at for seats in late.values() for seat in seats)

    with time_machine.travel(due + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
    with time_machine.travel(due + timedelta(hours=1), tick=True):
        sweep_now(app, session)  # no decision times out twice, the waiting one included
    timed_out = {
        rule: sorted(e.seat_position for e in events_of_kind(session, game, "timeout"))
        for rule, game in games.items()
    }
    assert timed_out == {rule: [seat.position for seat in seats] for rule, seats in late.items()}
    bot_played_the_late_move(
        session, session.get(Game, games[OnTimeout.BOT].id), late[OnTimeout.BOT]
    )
    seat_forfeited(session, session.get(Game, games[OnTimeout.FORFEIT].id), late[OnTimeout.FORFEIT])

    organiser_asked(app, session, session.get(Game, games[OnTimeout.WAIT].id), late[OnTimeout.WAIT])


def bot_played_the_late_move(session, game: Game, late: list[Seat]) -> None:
    late_positions = {seat.position for seat in late}
    moves = moves_by_channel(session, game)
    assert {position for position, _, _ in moves} == late_positions
    assert {channel for _, channel, _ in moves} == {"clock"}
    assert game.status == GameStatus.ACTIVE and game.to_act
    for seat in game.seats:
        assert seat.bot is None and seat.resigned_at is None and seat.user_id is not None
        assert (seat.deadline is not None) == (seat.position in game.to_act)  # a fresh clock
    text = events_of_kind(session, game, "timeout")[0].text
    assert text.endswith("A bot made this move for them; they keep their seat.")
    assert len(outbox_rows(session, game, notifications.TIMEOUT)) == 2 * len(late)


def seat_forfeited(session, game: Game, late: list[Seat]) -> None:
    [seat] = late
    session.refresh(seat)
    assert seat.resigned_at is not None and seat.bot == "random"
    assert seat.user_id is not None  # the seat still shows who lost it
    assert engine_game(game).to_record().withdrawn == [seat.position]  # ranked last
    assert seat.asked_at is seat.deadline is seat.timeout_at is None
    moves = moves_by_channel(session, game)
    assert {channel for position, channel, _ in moves if position == seat.position} == {"bot"}
    other = 1 - seat.position
    assert game.to_act == [other] and seat_of(session, game, other).deadline is not None
    text = events_of_kind(session, game, "timeout")[0].text
    assert text.endswith("They lose their seat and rank last; a bot plays it to the end.")
    assert len(outbox_rows(session, game, notifications.TIMEOUT)) == 2  # the late one too


def organiser_asked(app, session, game: Game, late: list[Seat]) -> None:
    assert moves_by_channel(session, game) == []
    assert game.to_act == sorted(seat.position for seat in late)
    for seat in late:
        session.refresh(seat)
        assert seat.timed_out_at is not None and seat.bot is None
    organiser = outbox_rows(session, game, notifications.ORGANISER_TIMEOUT)
    assert [row.recipient_id for row in organiser] == [game.created_by_id] * len(late)
    # The late player may still move while the organiser has not decided.
    seat = late[0]
    move = play_first_legal(app, session, game, seat.position)
    assert moves_by_channel(session, game)[0] == (seat.position, "api", move)


def test_a_forfeited_seat_is_played_to_the_end_like_a_resigned_one(app, session, make_user):
    ann = player(make_user, "Ann")
    clock = TimeControl(days_per_move=1, on_timeout=OnTimeout.FORFEIT)
    game = clocked_game(app, session, "taluva", [ann, "bot"], clock)
    late = seat_of(session, game, 0)
    with time_machine.travel(late.timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)  # returns once the bots have finished the game
    game = session.get(Game, game.id)
    assert game.status == GameStatus.FINISHED and verify_game(game) == []
    assert {channel for position, channel, _ in moves_by_channel(session, game)} == {"bot"}
    result = engine_game(game).state.result()
    assert 0 in {seat for group in result.ranking for seat in group}  # ranked like any seat
    # A resigned seat hears no more: Ann has the timeout mail, not 'game over'.
    to_ann = session.scalars(
        select(Outbox.kind)
        .where(Outbox.game_id == game.id, Outbox.recipient_id == ann.id)
        .order_by(Outbox.id)
    ).all()
    assert to_ann == ["your_turn", "timeout"]


def test_a_java_turn_sent_in_parts_is_one_decision_with_one_deadline(app, session, make_user):
    """Ann (seat 1) lays her first tile an hour in, and later the rest of her
    palace turn, a draw and a festival the drawn card does not allow (accepted
    in part: the draw stands). The turn goes on with the same deadline, and
    when it passes the bot finishes her turn."""
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(app, session, "java", [bob, ann], TimeControl(days_per_move=1))
    asked = seat_of(session, game, 1)
    asked_at, deadline = asked.asked_at, asked.deadline

    first, rest = FESTIVAL_AFTER_A_DRAW[0], "\n".join(FESTIVAL_AFTER_A_DRAW[1:])
    for hours, text, status in ((1, first, "accepted"), (5, rest, "partial")):
        with time_machine.travel(asked_at + timedelta(hours=hours), tick=True):
            assert judged(app, send(app, session, game, 1, text).id).status == status
        seat = seat_of(session, game, 1)
        assert (seat.asked_at, seat.deadline, seat.timeout_at) == (asked_at, deadline, deadline)

    with time_machine.travel(deadline + timedelta(minutes=1), tick=True):
        swept_at = utcnow()
        sweep_now(app, session)
    assert len(events_of_kind(session, game, "timeout")) == 1
    moves = moves_by_channel(session, game)
    played_by_ann = [*PALACE_TURN, "draw deck"]
    assert moves[: len(played_by_ann)] == [(1, "api", text) for text in played_by_ann]
    assert {(pos, channel) for pos, channel, _ in moves[len(played_by_ann) :]} == {(1, "clock")}
    assert session.get(Game, game.id).to_act == [0]  # the bot finished her turn
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
    assert session.get(Game, game.id).to_act == [0, 1, 2]
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
        stored = lost_submission(session, seat, "\n".join(turn), "mail")  # no worker saw it yet
        session.commit()
    with time_machine.travel(seat.timeout_at + timedelta(hours=2), tick=True):
        sweep_now(app, session)
        hand_on(app, stored.id)
        assert judged(app, stored.id).status == "accepted"
        sweep_now(app, session)
    assert moves_by_channel(session, game) == [(0, "mail", turn[0]), (0, "mail", turn[1])]
    assert events_of_kind(session, game, "timeout") == []
    assert session.get(Game, game.id).to_act == [1]


def test_a_game_that_no_longer_replays_does_not_stop_the_other_clocks(app, session, make_user):
    """A broken game (its stored log no longer replays) is logged and left
    for someone to look at; the sweep goes on to the other games' timeouts."""
    broken = clocked_game(
        app, session, "taluva", [player(make_user, "Ann"), player(make_user, "Bob")],
        TimeControl(days_per_move=1),
    )  # fmt: skip
    play_first_legal(app, session, broken, 0)  # Ann's tile: her turn goes on
    session.execute(
        update(Move).where(Move.game_id == broken.id).values(text="tile nowhere at all")
    )
    session.commit()
    with time_machine.travel(utcnow() + timedelta(hours=1), tick=True):
        healthy = clocked_game(
            app, session, "taluva", [player(make_user, "Cat"), player(make_user, "Dan")],
            TimeControl(days_per_move=1),
        )  # fmt: skip
    due = seat_of(session, healthy, 0).timeout_at
    assert seat_of(session, broken, 0).timeout_at < due  # the broken one comes first

    with time_machine.travel(due + timedelta(minutes=1), tick=True):
        sweep_now(app, session)
    assert events_of_kind(session, broken, "timeout") == []
    assert seat_of(session, broken, 0).timed_out_at is None
    assert [e.seat_position for e in events_of_kind(session, healthy, "timeout")] == [0]
