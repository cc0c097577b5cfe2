"""The race harness (tests/server/race_harness.py) briefly, on PostgreSQL:
random concurrent writers leave no violation. A count of operations, not
a time, so every machine races the same kinds of operation. Longer seeded
runs are made with `python -m tests.server.race_harness --seconds 60 --runs 10`."""

from __future__ import annotations

from datetime import timedelta

from pbem.clock.sweep import sweep
from pbem.models import GameEvent, OnTimeout
from pbem.services.events import events_of
from pbem.services.games import SeatSpec
from pbem.services.organiser import extend
from tests.server.clock.helpers import organised_game
from tests.server.race_harness import Until, _timeouts_twice, race

OPERATIONS = 50  # from each of the 6 clients


def test_a_short_seeded_race_leaves_every_invariant_true():
    report = race(Until(operations=OPERATIONS), seed=2026)
    assert report["violations"] == [], report
    moves = sum(count for answer, count in report["answers"].items() if answer.startswith("move"))
    # The clients did race. A client skips a seat whose turn still waits for
    # the worker, so the count falls as the machine gets busier: 23-26 alone,
    # 19 in a fresh clone's full run.
    assert moves >= 10, report


def test_a_timeout_may_strike_again_after_an_extension_but_not_twice_in_a_row(session, make_user):
    """The harness's check of repeated timeouts: the clock's own sequence
    (timeout, extension, timeout at the same ply) is no lost race; two
    timeouts of one decision with nothing between are."""
    organiser, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    seats = [SeatSpec(user=ann), SeatSpec(user=bob)]
    game = organised_game(None, session, organiser, seats, on_timeout=OnTimeout.WAIT)
    first = game.seats[0].timeout_at
    sweep(session, first + timedelta(minutes=1))
    extend(session, organiser, game.public_id, 0, 2)
    session.commit()
    sweep(session, first + timedelta(days=2, minutes=1))
    kinds = [event.kind for event in events_of(session, game)]
    assert kinds == ["timeout", "extend", "timeout"]
    lost_race = f"event timeout twice in game {game.id} seat 0 ply 0, nothing between"
    assert lost_race not in _timeouts_twice(session)

    last = events_of(session, game)[-1]
    session.add(
        GameEvent(game_id=game.id, ply=last.ply, kind="timeout", text=last.text, seat_position=0)
    )
    session.commit()
    assert lost_race in _timeouts_twice(session)
