"""A database as a server of any revision held it: two players, a Taluva
game eight moves in and a mail waiting, filled into whatever tables the
revision has; on PostgreSQL or SQLite. Each `era` stores rows of its own
(ids, addresses and names apart), so one database can hold those of many
revisions, as a server that lived through them does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import engine
from engine.core.selfplay import play_bot_game
from tests.server.conftest import scratch_database

PLIES = 8
NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def game_id(era: int) -> str:
    return f"migrated-game-{era}"


@cache
def opening() -> engine.Game:
    """The game every era stores: eight moves of a Taluva bot game."""
    log = play_bot_game("taluva", 2, "migrations").game.log[:PLIES]
    replayed = engine.Game.new("taluva", ["Ann", "Bob"], "migrations")
    replayed.replay(log)
    return replayed


def rows(era: int = 0) -> dict[str, list[dict[str, Any]]]:
    """What a server of any revision held: two players, a Taluva game eight
    moves in, and a mail waiting to be sent."""
    replayed = opening()
    return {
        "users": [
            {
                "id": 2 * era + n,
                "email": f"{name.lower()}-{era}@example.org",
                "name": name,
                "time_zone": "UTC",
                "language": "en",
            }
            for n, name in ((1, "Ann"), (2, "Bob"))
        ],
        "games": [
            {
                "id": era + 1,
                "public_id": game_id(era),
                "ruleset": "taluva",
                "ruleset_version": replayed.ruleset.version,
                "options": {},
                "seed": "migrations",
                "status": "active",
                "to_act": sorted(replayed.state.to_act()),
                "created_by_id": 2 * era + 1,
            }
        ],
        "seats": [
            {
                "id": 2 * era + n + 1,
                "game_id": era + 1,
                "position": n,
                "colour": colour,
                "name": name,
                "user_id": 2 * era + n + 1,
                "token": f"seat-token-{era}-{n}",
            }
            for n, (colour, name) in enumerate((("red", "Ann"), ("blue", "Bob")))
        ],
        "moves": [
            {
                "id": era * PLIES + ply,
                "game_id": era + 1,
                "ply": ply,
                "seat_id": 2 * era + entry.seat + 1,
                "text": entry.text,
                "channel": "api",
            }
            for ply, entry in enumerate(replayed.log, start=1)
        ],
        "outbox": [
            {
                "id": era + 1,
                "recipient_id": 2 * era + 1,
                "game_id": era + 1,
                "kind": "your_turn",
                "status": "pending",
                "payload": {"game": game_id(era), "seat": 0, "ply": PLIES},
            }
        ],
    }


def filler(column: sa.Column, number: str) -> Any:
    """A value for a required column the rows above do not name (one added
    later); text is told apart per row, for columns that must be unique."""
    kind = column.type
    if isinstance(kind, sa.JSON):
        return {}
    if isinstance(kind, sa.DateTime):
        return NOW
    if isinstance(kind, sa.Boolean):
        return False
    if isinstance(kind, sa.Integer | sa.Float):
        return 0
    return f"{column.name}-{number}"


def fill(engine: sa.Engine, era: int = 0) -> None:
    """Store the era's rows in the tables of whatever revision the database is at."""
    tables = sa.MetaData()
    tables.reflect(bind=engine)
    with engine.begin() as connection:
        for name, wanted in rows(era).items():
            table = tables.tables[name]
            for number, row in enumerate(wanted):
                values = {key: value for key, value in row.items() if key in table.c}
                for column in table.c:
                    required = not column.nullable and column.server_default is None
                    if column.name not in values and required and not column.primary_key:
                        values[column.name] = filler(column, f"{era}-{number}")
                connection.execute(table.insert().values(values))


@contextmanager
def database(backend: str, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database: a scratch one on PostgreSQL, a file on SQLite."""
    if backend == "postgresql":
        with scratch_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
