"""Upgrading a database that holds games, moves and mail, from every earlier
revision to the newest: nothing is lost and every game still replays."""

from __future__ import annotations

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, select

from pbem import migrate
from pbem.db import Database
from pbem.models import Game, Outbox
from pbem.services.replay import verify_game
from tests.server.migration_data import PLIES, database, fill


def revisions() -> list[str]:
    scripts = ScriptDirectory.from_config(migrate.alembic_config(create_engine("sqlite://")))
    return [script.revision for script in reversed(list(scripts.walk_revisions()))][:-1]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_of_each_earlier_revision_upgrades_with_its_games(backend, tmp_path, subtests):
    """An empty database climbs the revisions one at a time; at each, a copy
    of it is filled as a server of that revision held it and upgraded to the
    newest (each revision migrated once to copy from, not from nothing)."""
    with database(backend, tmp_path) as climbing_url:
        climbing = Database(climbing_url)
        for revision in revisions():
            migrate.upgrade(climbing.engine, revision)
            climbing.dispose()  # a database being copied has no one connected
            with subtests.test(revision=revision), database(backend, tmp_path, climbing_url) as url:
                upgraded_with_its_games(Database(url))


def upgraded_with_its_games(old: Database) -> None:
    try:
        fill(old.engine)
        migrate.upgrade(old.engine)
        with old.session() as session:
            game = session.scalars(select(Game)).one()
            assert len(game.moves) == PLIES and [s.name for s in game.seats] == ["Ann", "Bob"]
            assert verify_game(game) == []
            mail = session.scalars(select(Outbox)).one()
            assert (mail.kind, mail.status, mail.payload["ply"]) == ("your_turn", "pending", 8)
    finally:
        old.dispose()
