"""Database migrations with Alembic; the scripts live in pbem/migrations."""

from __future__ import annotations

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Engine


def alembic_config(engine: Engine) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", "pbem:migrations")
    config.attributes["engine"] = engine
    return config


def _run(engine: Engine, action, *args) -> None:  # type: ignore[no-untyped-def]
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        action(config, *args)


def upgrade(engine: Engine, revision: str = "head") -> None:
    _run(engine, command.upgrade, revision)


def downgrade(engine: Engine, revision: str) -> None:
    _run(engine, command.downgrade, revision)


def make_revision(engine: Engine, message: str) -> None:
    """Write a new migration from the difference between models and database."""
    _run(engine, lambda config: command.revision(config, message=message, autogenerate=True))
