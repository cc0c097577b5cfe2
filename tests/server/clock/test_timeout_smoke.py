"""The issue's newcomer story: a 3-player Taluva game with 1 day per move,
one player goes silent, and after the deadline a bot takes the turn."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.models import Game, GameEvent, Move, Outbox
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl
from tests.server.conftest import wait_for


def test_silent_taluva_player_is_replaced_by_a_bot_for_that_turn(app, session, make_user):
    ann, bob, cat = make_user("Ann"), make_user("Bob"), make_user("Cat")
    for user in (ann, bob, cat):
        user.quiet_start = user.quiet_end = None
    game = create_game(
        session,
        ann,
        "taluva",
        [SeatSpec(user=ann), SeatSpec(user=bob), SeatSpec(user=cat)],
        time_control=TimeControl(days_per_move=1),
    )
    session.commit()
    seat = game.seats[0]
    assert game.to_act == [0]
    assert seat.deadline == seat.asked_at + timedelta(days=1) == seat.timeout_at
    assert game.seats[1].deadline is None

    assert sweep(session).timeouts == 0
    with time_machine.travel(seat.timeout_at + timedelta(minutes=1), tick=True):
        report = sweep(session)
        assert report.timeouts == 1
        assert sweep(session).timeouts == 0  # once, however often it runs

        def moved() -> list[Move]:
            session.expire_all()
            return session.scalars(select(Move).where(Move.game_id == game.id)).all()

        moves = wait_for(moved, what="the clock's bot to play")
    assert {m.channel for m in moves} == {"clock"}
    session.expire_all()
    game = session.get(Game, game.id)
    assert game.to_act == [1]
    assert game.seats[0].user_id == ann.id and game.seats[0].bot is None
    assert game.seats[0].deadline is None and game.seats[1].deadline is not None
    events = session.scalars(select(GameEvent).where(GameEvent.game_id == game.id)).all()
    assert [e.kind for e in events] == ["timeout"]
    told = session.scalars(
        select(Outbox.recipient_id).where(Outbox.game_id == game.id, Outbox.kind == "timeout")
    ).all()
    assert sorted(told) == sorted([ann.id, bob.id, cat.id])
