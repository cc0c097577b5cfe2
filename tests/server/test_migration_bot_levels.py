"""Migration 0021 on data, both ways: games and leagues get the default
stand-in level, seats of the old "kinds" bot the nearest level (easy), and a
downgrade takes the new columns away again."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from engine.bots import DEFAULT_LEVEL
from pbem import create_app, migrate
from pbem.db import get_db
from tests.server.migration_data import database, fill


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_bot_levels_migrate_up_and_down_with_their_games(backend, tmp_path):
    with database(backend, tmp_path) as url:
        app = create_app({"SECRET_KEY": "test", "PBEM_DATABASE_URL": url})
        with app.app_context():
            engine = get_db().engine
            migrate.upgrade(engine, "0020")
            fill(engine)
            with engine.begin() as connection:
                connection.execute(sa.text("UPDATE seats SET bot = 'kinds' WHERE position = 1"))

            migrate.upgrade(engine, "0021")
            with engine.connect() as connection:
                bots = connection.scalars(sa.text("SELECT bot FROM seats ORDER BY position"))
                assert bots.all() == [None, "easy"]
                stand_in = connection.scalar(sa.text("SELECT stand_in FROM games"))
                assert stand_in == DEFAULT_LEVEL
                asked = connection.scalar(sa.text("SELECT count(bot_asked_at) FROM seats"))
                assert asked == 0

            migrate.downgrade(engine, "0020")
            columns = {
                table: {column["name"] for column in sa.inspect(engine).get_columns(table)}
                for table in ("games", "leagues", "seats")
            }
            assert "stand_in" not in columns["games"] | columns["leagues"]
            assert "bot_asked_at" not in columns["seats"]
            get_db().dispose()
