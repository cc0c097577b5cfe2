"""The `pbem` command: migrations, users and tokens, and the self-playing demo."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from celery.signals import worker_process_init
from sqlalchemy import inspect

from pbem import create_app
from pbem.cli import main
from pbem.models import Base
from pbem.services.accounts import user_for_token


def test_migrations_create_exactly_the_tables_of_the_models(app):
    engine = app.extensions["pbem.db"].engine
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []


def embedded_app(tmp_path):
    """The embedded default: SQLite and a filesystem broker in the instance folder."""
    return create_app(
        {
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'pbem.sqlite3'}",
            "PBEM_BROKER_URL": "filesystem://localhost/",
            "PBEM_BROKER_FOLDER": str(tmp_path / "broker"),
        }
    )


def test_db_upgrade_and_downgrade_on_a_fresh_database(tmp_path):
    app = embedded_app(tmp_path)
    runner = app.test_cli_runner()
    engine = app.extensions["pbem.db"].engine
    assert runner.invoke(main, ["db", "upgrade"]).output == "database at head\n"
    assert "games" in inspect(engine).get_table_names()
    assert runner.invoke(main, ["db", "downgrade", "base"]).exit_code == 0
    assert inspect(engine).get_table_names() == ["alembic_version"]


def test_user_create_and_token(tmp_path):
    app = embedded_app(tmp_path)
    runner = app.test_cli_runner()
    runner.invoke(main, ["db", "upgrade"])
    created = runner.invoke(main, ["user", "create", "Ann@Example.org", "--name", "Ann"])
    assert created.output == "user 1: Ann <ann@example.org>\n"
    again = runner.invoke(main, ["user", "create", "ann@example.org"])
    assert "there is already a user with e-mail ann@example.org" in again.output
    bad_zone = runner.invoke(main, ["user", "create", "bob@example.org", "--time-zone", "Mars"])
    assert "unknown time zone 'Mars'" in bad_zone.output
    bad_name = runner.invoke(main, ["user", "create", "cy@example.org", "--name", "Cy\nBcc: x"])
    assert bad_name.exit_code == 1 and "may not contain control characters" in bad_name.output
    token = runner.invoke(main, ["user", "token", "ann@example.org"]).output.strip()
    with app.extensions["pbem.db"].session() as session:
        assert user_for_token(session, token).email == "ann@example.org"


def test_demo_plays_a_bot_game_through_an_embedded_worker(tmp_path):
    app = embedded_app(tmp_path)
    result = app.test_cli_runner().invoke(
        main, ["demo", "--game", "toy-pick", "--players", "3", "--timeout", "60"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("3 bots play toy-pick")
    assert all("(bot): pick " in line for line in lines[1:-1])
    assert lines[-1].startswith("game over: target reached; won by Bot ")


def test_worker_child_drops_connections_inherited_from_its_parent(tmp_path):
    app = embedded_app(tmp_path)
    database = app.extensions["pbem.db"]
    with database.engine.connect():
        pass
    pool = database.engine.pool
    worker_process_init.send(sender=None)
    assert database.engine.pool is not pool
