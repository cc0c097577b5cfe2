"""Timeouts and what they submit, counted where they happen and shown at the
/metrics of a process that sweeps and judges itself (like `pbem serve`)."""

from __future__ import annotations

from datetime import timedelta

import time_machine

from pbem.models import OnTimeout
from pbem.services.time_control import TimeControl
from tests.server.clock.helpers import clocked_game, player, seat_of, sweep_now
from tests.server.metric_samples import scrape, value


def test_one_process_shows_its_worker_thread_events_with_the_state(app, session, make_user):
    """Like `pbem serve`: the sweep's timeouts and the worker thread's judging
    of the late seat's move show at the app's own /metrics."""
    before = scrape(app)
    late = {}
    for rule in OnTimeout:
        ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
        clock = TimeControl(days_per_move=1, on_timeout=rule)
        game = clocked_game(app, session, "taluva", [ann, bob], clock)
        late[rule] = seat_of(session, game, game.to_act[0]).timeout_at
    with time_machine.travel(max(late.values()) + timedelta(minutes=1), tick=True):
        sweep_now(app, session)

    after = scrape(app)

    def more(name: str, **labels: str) -> float:
        return (value(after, name, **labels) or 0) - (value(before, name, **labels) or 0)

    assert {rule.value: more("pbem_timeouts_total", rule=rule.value) for rule in OnTimeout} == {
        "bot": 1,
        "forfeit": 1,
        "wait": 1,
    }
    assert more("pbem_submissions_received_total", channel="clock") == 1
    assert more("pbem_submissions_judged_total", channel="clock", outcome="accepted") == 1
    assert more("pbem_judge_seconds_count", ruleset="taluva") >= 2  # the bot's forfeit move too
