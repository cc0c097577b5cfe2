"""A database as a server of any revision held it: two players, a Taluva
game eight moves in and a mail waiting, filled into whatever tables the
revision has; on PostgreSQL or SQLite."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import engine
from engine.core.selfplay import play_bot_game
from tests.server.conftest import scratch_database

PLIES = 8
NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def rows() -> dict[str, list[dict[str, Any]]]:
    """What a server of any revision held: two players, a Taluva game eight
    moves in, and a mail waiting to be sent."""
    log = play_bot_game("taluva", 2, "migrations").game.log[:PLIES]
    replayed = engine.Game.new("taluva", ["Ann", "Bob"], "migrations")
    replayed.replay(log)
    return {
        "users": [
            {
                "id": n,
                "email": f"{name.lower()}@example.org",
                "name": name,
                "time_zone": "UTC",
                "language": "en",
            }
            for n, name in ((1, "Ann"), (2, "Bob"))
        ],
        "games": [
            {
                "id": 1,
                "public_id": "migrated-game",
                "ruleset": "taluva",
                "ruleset_version": replayed.ruleset.version,
                "options": {},
                "seed": "migrations",
                "status": "active",
                "to_act": sorted(replayed.state.to_act()),
                "created_by_id": 1,
            }
        ],
        "seats": [
            {
                "id": n + 1,
                "game_id": 1,
                "position": n,
                "colour": colour,
                "name": name,
                "user_id": n + 1,
                "token": f"seat-token-{n}",
            }
            for n, (colour, name) in enumerate((("red", "Ann"), ("blue", "Bob")))
        ],
        "moves": [
            {
                "id": ply,
                "game_id": 1,
                "ply": ply,
                "seat_id": entry.seat + 1,
                "text": entry.text,
                "channel": "api",
            }
            for ply, entry in enumerate(log, start=1)
        ],
        "outbox": [
            {
                "id": 1,
                "recipient_id": 1,
                "game_id": 1,
                "kind": "your_turn",
                "status": "pending",
                "payload": {"game": "migrated-game", "seat": 0, "ply": PLIES},
            }
        ],
    }


def filler(column: sa.Column, number: int) -> Any:
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


def fill(engine: sa.Engine) -> None:
    """Store rows() in the tables of whatever revision the database is at."""
    tables = sa.MetaData()
    tables.reflect(bind=engine)
    with engine.begin() as connection:
        for name, wanted in rows().items():
            table = tables.tables[name]
            for number, row in enumerate(wanted):
                values = {key: value for key, value in row.items() if key in table.c}
                for column in table.c:
                    required = not column.nullable and column.server_default is None
                    if column.name not in values and required and not column.primary_key:
                        values[column.name] = filler(column, number)
                connection.execute(table.insert().values(values))


@contextmanager
def database(backend: str, tmp_path: Path, copy_of: str | None = None) -> Iterator[str]:
    """The URL of a database: a scratch one on PostgreSQL, a file on SQLite;
    empty, or a copy of the one at `copy_of` (which nobody may be using)."""
    if backend == "postgresql":
        with scratch_database(copy_of) as url:
            yield url
        return
    path = tmp_path / f"{uuid.uuid4().hex[:12]}.sqlite3"
    if copy_of:
        shutil.copyfile(sa.make_url(copy_of).database or "", path)
    yield f"sqlite:///{path}"
