"""Board pictures: size and drawing cost, and serving board.png twice: prints figures.

    .venv/bin/python -m benchmarks.pictures [--repeats 5] [--players 4]

For each ruleset a bot game is played; its board (a seat's view) is drawn at
an early and at the last ply: PNG bytes and the median ms to draw. Then the
game is stored in a scratch SQLite database, with the snapshots the pipeline
would have kept (so a page replays at most a block of moves), and
`/games/<id>/board.png` is
asked for the same (ply, viewer) through the Flask test client: the first
request draws (or finds a stored picture), the second is the same request
again (the median of repeats), so any reuse shows; the last column is the
same request from a browser that has the picture (If-None-Match: a 304).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from flask import Flask

import engine
from benchmarks.turn_cost import checkpoints
from engine.core.selfplay import play_bot_game
from pbem import create_app, migrate
from pbem.db import get_db
from pbem.models import Game, GameStatus, Move, Seat
from pbem.render import render_png
from pbem.render.colours import SEAT_COLOURS

EARLY_PLY = 6


def median_ms(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def stored_game(played: engine.Game) -> Game:
    """The bot game as the server keeps it: seats and the move log."""
    record = played.to_record()
    game = Game(
        ruleset=record.ruleset,
        ruleset_version=record.version,
        options=dict(record.options),
        seed=record.seed,
        status=GameStatus.ACTIVE,
    )
    game.seats = [
        Seat(position=i, colour=SEAT_COLOURS[i], name=name, bot="random")
        for i, name in enumerate(record.seats)
    ]
    game.moves = [
        Move(ply=n, seat=game.seats[m.seat], text=m.text, channel="api")
        for n, m in enumerate(record.moves, start=1)
    ]
    return game


def cut(played: engine.Game, plies: int) -> engine.Game:
    record = played.to_record()
    record.moves = record.moves[:plies]
    return engine.Game.from_record(record)


def sqlite_app(prefix: str) -> Flask:
    """The app on a new SQLite database of its own, migrated."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "PBEM_LOG_LEVEL": "WARNING",
            "PBEM_DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        }
    )
    with app.app_context():
        migrate.upgrade(get_db().engine)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    app = sqlite_app("pbem-pictures-")
    client = app.test_client()
    print(
        f"{'game':8} {'ply':>5} {'KB':>7} {'draw ms':>8} | "
        f"{'board.png 1st ms':>16} {'2nd ms':>8} {'KB':>7} {'304 ms':>8}"
    )
    for ruleset in engine.rulesets():
        players = min(args.players, ruleset.max_players)
        played = play_bot_game(ruleset.name, players, "bench-pictures").game
        with app.extensions["pbem.db"].session() as session:
            game = stored_game(played)
            session.add(game)
            session.commit()
            public_id, game_id = game.public_id, game.id
        with app.app_context():  # the snapshots the pipeline would have kept
            checkpoints(game_id, len(played.log))
        colours = list(SEAT_COLOURS[:players])
        last = len(played.to_record().moves)
        for ply in (EARLY_PLY, last):
            view = cut(played, ply).view(None)
            png = render_png(view, colours)
            draw = median_ms(partial(render_png, view, colours), args.repeats)
            url = f"/games/{public_id}/board.png?ply={ply}"
            first = median_ms(partial(client.get, url), 1)
            again = median_ms(partial(client.get, url), args.repeats)
            served = client.get(url)
            known = {"If-None-Match": served.headers.get("ETag", "")}
            revalidated = median_ms(partial(client.get, url, headers=known), args.repeats)
            print(
                f"{ruleset.name:8} {ply:5d} {len(png) / 1024:7.1f} {draw:8.1f} | "
                f"{first:16.1f} {again:8.1f} {len(served.get_data()) / 1024:7.1f} "
                f"{revalidated:8.1f}"
            )


if __name__ == "__main__":
    main()
