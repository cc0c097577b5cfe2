"""Upgrading a database that holds games, moves and mail, from every earlier
revision to the newest: nothing is lost and every game still replays."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, select

import engine
from engine.core.selfplay import play_bot_game
from pbem import create_app, migrate
from pbem.db import get_db
from pbem.models import Game, Outbox
from pbem.services.replay import verify_game
from tests.server.conftest import scratch_database

PLIES = 8
NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def revisions() -> list[str]:
    scripts = ScriptDirectory.from_config(migrate.alembic_config(create_engine("sqlite://")))
    return [script.revision for script in reversed(list(scripts.walk_revisions()))][:-1]


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
def database(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "postgresql":
        with scratch_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("revision", revisions())
def test_a_database_of_an_earlier_revision_upgrades_with_its_games(backend, revision, tmp_path):
    with database(backend, tmp_path) as url:
        app = create_app({"SECRET_KEY": "test", "PBEM_DATABASE_URL": url})
        with app.app_context():
            engine = get_db().engine
            migrate.upgrade(engine, revision)
            fill(engine)
            migrate.upgrade(engine)
            with get_db().session() as session:
                game = session.scalars(select(Game)).one()
                assert len(game.moves) == PLIES and [s.name for s in game.seats] == ["Ann", "Bob"]
                assert verify_game(game) == []
                mail = session.scalars(select(Outbox)).one()
                assert (mail.kind, mail.status, mail.payload["ply"]) == ("your_turn", "pending", 8)
            get_db().dispose()
