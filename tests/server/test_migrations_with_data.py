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
from tests.server.migration_data import PLIES, database, fill, game_id


def revisions() -> list[str]:
    scripts = ScriptDirectory.from_config(migrate.alembic_config(create_engine("sqlite://")))
    return [script.revision for script in reversed(list(scripts.walk_revisions()))][:-1]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_that_lived_through_every_revision_upgrades_with_its_games(backend, tmp_path):
    """The database of a server that ran every revision in turn, a game
    stored in each (two players, eight moves, a mail waiting) in the tables
    that revision had: each game goes through every later migration, and at
    the newest none is lost and each still replays."""
    eras = revisions()
    with database(backend, tmp_path) as url:
        old = Database(url)
        try:
            for era, revision in enumerate(eras):
                migrate.upgrade(old.engine, revision)
                fill(old.engine, era)
            migrate.upgrade(old.engine)
            with old.session() as session:
                games = session.scalars(select(Game).order_by(Game.id)).all()
                assert [g.public_id for g in games] == [game_id(e) for e in range(len(eras))]
                for era, game in enumerate(games):
                    stored_at = f"stored at revision {eras[era]}"
                    assert len(game.moves) == PLIES, stored_at
                    assert [s.name for s in game.seats] == ["Ann", "Bob"], stored_at
                    assert verify_game(game) == [], stored_at
                mail = session.scalars(select(Outbox).order_by(Outbox.id)).all()
                assert [(m.kind, m.status, m.payload["ply"], m.game_id) for m in mail] == [
                    ("your_turn", "pending", PLIES, game.id) for game in games
                ]
        finally:
            old.dispose()
