"""The cost of one turn and of one watch page, early and late in a game: prints figures.

    .venv/bin/python -m benchmarks.turn_cost [--postgres] [--turns 15] [--pages 30]

For each ruleset bots play a long game through the engine. The game is then
stored with a player on every seat, its log cut at an early and at a late
ply, and the next moves of the bots' record are judged one by one by the
pipeline (`process_submission`: replay, judge, store, queue mails), as a
worker would. Each turn is timed twice over: starting from the newest
snapshot, and with the snapshots dropped first, which is a replay from
move 1 as before snapshots existed. Then the watch page of random plies is
asked through the Flask test client. Medians and p95 in milliseconds.
The database is a scratch SQLite file, or with --postgres a scratch
PostgreSQL database (PBEM_TEST_POSTGRES_URL's server, default the local one).
Run it from the checkout's root with the test extras (it shares the tests'
scratch database).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask

from benchmarks.engine_speed import LONG_JAVA
from engine import LoggedMove
from engine.core.selfplay import play_bot_game
from pbem import create_app, migrate
from pbem.db import get_db
from pbem.models import Channel, Game, Move
from pbem.services import accounts, snapshots
from pbem.services.games import SeatSpec, create_game
from pbem.services.pipeline import process_submission
from pbem.services.replay import record_of
from pbem.services.submissions import submit
from tests.server.conftest import scratch_database

# The long Java game is engine_speed.py's: about 1,800 moves.
GAMES = (
    LONG_JAVA,
    ("java", 4, "turn-cost-1"),
    ("taluva", 3, "turn-cost-1"),
    ("samurai", 3, "turn-cost-1"),
)


@contextmanager
def scratch_url(postgres: bool) -> Iterator[str]:
    if postgres:
        with scratch_database() as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):8.1f} {p95:8.1f}"


def stored(
    app: Flask, ruleset: str, players: int, seed: str, ply: int
) -> tuple[int, list[LoggedMove]]:
    """The bots' game stored up to `ply`, every seat a player; its record's moves."""
    record = play_bot_game(ruleset, players, seed).game.to_record()
    with get_db().session() as session:
        users = [
            accounts.create_user(session, f"p{i}-{uuid.uuid4().hex[:6]}@example.org", f"P{i}")
            for i in range(players)
        ]
        game = create_game(
            session, users[0], ruleset, [SeatSpec(user=u) for u in users], seed=record.seed
        )
        for number, entry in enumerate(record.moves[:ply], start=1):
            seat = game.seats[entry.seat]
            game.moves.append(Move(ply=number, seat_id=seat.id, text=entry.text, channel="api"))
        session.commit()
        return game.id, record.moves


def timed_turns(
    game_id: int, moves: list[LoggedMove], first: int, turns: int, fresh: bool
) -> list[float]:
    """Judge the record's moves from ply `first` on, one submission each."""
    samples = []
    with get_db().session() as session:
        for entry in moves[first : first + turns]:
            game = session.get_one(Game, game_id)
            if fresh:
                snapshots.forget(session, game_id)
                session.commit()
            submission = submit(session, game.seats[entry.seat], entry.text, Channel.API)
            session.commit()
            started = time.perf_counter()
            outcome = process_submission(session, submission.id)
            samples.append((time.perf_counter() - started) * 1000)
            assert outcome is not None and outcome.status == "accepted", outcome
            session.expire_all()
    return samples


def checkpoints(game_id: int, ply: int) -> None:
    """The snapshots the pipeline would have kept had it judged the first `ply` moves."""
    with get_db().session() as session:
        game = session.get_one(Game, game_id)
        record = record_of(game)
        played = snapshots.from_scratch(record, 0)
        for block in range(snapshots.CHECKPOINT_PLIES, ply + 1, snapshots.CHECKPOINT_PLIES):
            played.replay(record.moves[len(played.log) : block])
            snapshots.keep(session, game_id, record, played)
        session.commit()


def page_times(app: Flask, game_id: int, plies: int, pages: int) -> list[float]:
    with get_db().session() as session:
        public_id = session.get_one(Game, game_id).public_id
    client = app.test_client()
    client.get(f"/games/{public_id}/watch")  # the first request compiles the templates
    samples = []
    for ply in random.Random(1).sample(range(plies + 1), min(pages, plies + 1)):
        started = time.perf_counter()
        response = client.get(f"/games/{public_id}/watch?ply={ply}")
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    return samples


def row(label: str, samples: list[float]) -> None:
    print(f"  {label:34} {percentiles(samples)}")


def measure(app: Flask, ruleset: str, players: int, seed: str, turns: int, pages: int) -> None:
    length = len(play_bot_game(ruleset, players, seed).game.log)
    late = length - turns - 1
    print(f"{ruleset} {players}p, {length} moves")
    for ply in (20, late):
        game_id, moves = stored(app, ruleset, players, seed, ply)
        checkpoints(game_id, ply)
        timed_turns(game_id, moves, ply, 1, fresh=False)  # the newest snapshot
        row(f"turn at move {ply}, snapshot", timed_turns(game_id, moves, ply + 1, turns, False))
        game_id, moves = stored(app, ruleset, players, seed, ply)
        row(f"turn at move {ply}, replay from 1", timed_turns(game_id, moves, ply, turns, True))
    game_id, moves = stored(app, ruleset, players, seed, late)
    checkpoints(game_id, late)
    timed_turns(game_id, moves, late, 1, fresh=False)
    row("watch page, random ply", page_times(app, game_id, late + 1, pages))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--turns", type=int, default=15, help="turns timed per case")
    parser.add_argument("--pages", type=int, default=30, help="watch pages timed per game")
    args = parser.parse_args()
    with scratch_url(args.postgres) as url:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "PBEM_DATABASE_URL": url,
                "PBEM_BROKER_URL": "memory://",  # judged here: the hand-offs go to no worker
            }
        )
        with app.app_context():
            migrate.upgrade(get_db().engine)
            app.config["PBEM_SNAPSHOT_CHECK_PERCENT"] = 0
            print(f"{'':36} {'median':>8} {'p95':>8}   (ms, {url.split(':')[0]})")
            for ruleset, players, seed in GAMES:
                measure(app, ruleset, players, seed, args.turns, args.pages)
            get_db().dispose()


if __name__ == "__main__":
    main()
