"""Upgrading a database that holds games, moves and mail, from every earlier
revision to the newest: nothing is lost and every game still replays."""

from __future__ import annotations

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, select

from pbem import create_app, migrate
from pbem.db import get_db
from pbem.models import Game, Outbox
from pbem.services.replay import verify_game
from tests.server.migration_data import PLIES, database, fill


def revisions() -> list[str]:
    scripts = ScriptDirectory.from_config(migrate.alembic_config(create_engine("sqlite://")))
    return [script.revision for script in reversed(list(scripts.walk_revisions()))][:-1]


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
