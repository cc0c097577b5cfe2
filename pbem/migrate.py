"""Database migrations with Alembic; the scripts live in pbem/migrations."""

from __future__ import annotations

from collections.abc import Callable

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Engine


def alembic_config(engine: Engine) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", "pbem:migrations")
    config.attributes["engine"] = engine
    return config


def _run(engine: Engine, action: Callable[..., object], *args: str) -> None:
    config = alembic_config(engine)
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            with connection.begin():
                config.attributes["connection"] = connection
                action(config, *args)
            return
        # SQLite alters a table by copying it and dropping the old one; with
        # foreign keys on, that drop deletes every row that refers to it (all
        # of a game's moves and seats, by ON DELETE CASCADE). So they are off
        # while migrating (the pragma only works outside a transaction), and
        # checked before the migration commits.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                action(config, *args)
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"the migration left rows without their parents: {broken}")
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def upgrade(engine: Engine, revision: str = "head") -> None:
    _run(engine, command.upgrade, revision)


def downgrade(engine: Engine, revision: str) -> None:
    _run(engine, command.downgrade, revision)


def make_revision(engine: Engine, message: str) -> None:
    """Write a new migration from the difference between models and database."""
    _run(engine, lambda config: command.revision(config, message=message, autogenerate=True))
