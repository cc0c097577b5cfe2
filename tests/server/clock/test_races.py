"""Two sweeps at once on PostgreSQL (two beat processes, or the beat and
`pbem sweep`): each reminder is sent once and each timeout applied once."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

from flask import Flask
from sqlalchemy import func, select

from pbem.clock.sweep import SweepReport, sweep
from pbem.models import Game, Submission
from pbem.services import notifications
from pbem.services.time_control import TimeControl
from tests.server.clock.helpers import (
    clocked_game,
    events_of_kind,
    outbox_rows,
    player,
    seat_of,
)
from tests.server.conftest import drain

GAMES = 3


def racing_sweeps(app: Flask, now: datetime) -> list[SweepReport]:
    """Two sweeps, each with a session of its own, let go at the same moment."""
    barrier, reports, failures = threading.Barrier(2), [], []

    def run() -> None:
        try:
            with app.extensions["pbem.db"].session() as own:
                barrier.wait()
                reports.append(sweep(own, now))
        except Exception as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == [] and len(reports) == 2
    return reports


def games_of_ann_and_bob(app, session, make_user, clock: TimeControl) -> list[Game]:
    games = []
    for _ in range(GAMES):
        ann = player(make_user, "Ann", reminder_hours=24)
        bob = player(make_user, "Bob", reminder_hours=24)
        games.append(clocked_game(app, session, "taluva", [ann, bob], clock))
    return games


def test_two_sweeps_at_once_send_each_reminder_once(postgres_only, session, make_user):
    games = games_of_ann_and_bob(postgres_only, session, make_user, TimeControl(days_per_move=3))
    latest = max(seat_of(session, game, 0).timeout_at for game in games)
    reports = racing_sweeps(postgres_only, latest - timedelta(hours=23))
    assert sum(report.reminders for report in reports) >= GAMES
    session.expire_all()
    for game in games:
        reminders = outbox_rows(session, game, notifications.REMINDER)
        assert [row.payload["seat"] for row in reminders] == [0]
        assert seat_of(session, game, 0).reminded_at is not None


def test_two_sweeps_at_once_time_each_seat_out_once(postgres_only, session, make_user):
    games = games_of_ann_and_bob(postgres_only, session, make_user, TimeControl(days_per_move=1))
    latest = max(seat_of(session, game, 0).timeout_at for game in games)
    racing_sweeps(postgres_only, latest + timedelta(minutes=1))
    drain(postgres_only)  # the stand-in bots think for the seats timed out
    session.expire_all()
    for game in games:
        clock_submissions = session.scalar(
            select(func.count()).where(Submission.game_id == game.id, Submission.channel == "clock")
        )
        assert clock_submissions == 1
        assert len(events_of_kind(session, game, "timeout")) == 1
        assert len(outbox_rows(session, game, notifications.TIMEOUT)) == 2
