"""deploy/backup.sh: dumps that restore into a new database where every game
still replays (`pbem verify --all`), the oldest dumps rotated away."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pbem import create_app, migrate
from pbem.db import get_db
from pbem.models import Game
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.pipeline import process_submission
from pbem.services.replay import engine_game
from pbem.services.submissions import submit
from tests.server.conftest import scratch_database
from tests.server.server_processes import pbem

pytestmark = pytest.mark.system  # starts the backup script, pg_dump and `pbem verify`

BACKUP = Path(__file__).resolve().parents[2] / "deploy" / "backup.sh"
SECRET = "backup-test"


def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg:", "postgresql:")


def a_game_under_way(url: str) -> str:
    """Two players, eight moves of Taluva through the pipeline; its public id."""
    app = create_app({"SECRET_KEY": SECRET, "PBEM_DATABASE_URL": url})
    with app.app_context():
        migrate.upgrade(get_db().engine)
        with get_db().session() as session:
            ann = accounts.create_user(session, "ann@example.org", "Ann")
            bob = accounts.create_user(session, "bob@example.org", "Bob")
            game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
            session.commit()
            for _ in range(8):
                session.expire_all()
                state = engine_game(session.get_one(Game, game.id)).state
                seat = min(state.to_act())
                move = state.format_move(state.legal_moves(seat)[0])
                process_submission(session, submit(session, game.seats[seat], move, "api").id)
            public_id = game.public_id
        get_db().dispose()
    return public_id


def test_a_dump_restores_into_a_new_database_where_every_game_replays(tmp_path):
    backups = tmp_path / "backups"
    with scratch_database() as url:
        public_id = a_game_under_way(url)
        env = {**os.environ, "PBEM_DATABASE_URL": url, "PBEM_BACKUP_DIR": str(backups)}
        made = [
            subprocess.run(
                ["bash", str(BACKUP)],
                env={**env, "PBEM_BACKUP_KEEP": "2"},
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            for _ in range(3)
        ]
    kept = sorted(str(path) for path in backups.glob("pbem-*.dump"))
    assert kept == sorted(made[1:])  # the oldest went
    with scratch_database() as restored:
        subprocess.run(
            ["pg_restore", "--no-owner", "-d", libpq(restored), made[-1]],
            check=True,
            capture_output=True,
        )
        checked = subprocess.run(
            pbem("verify", "--all"),
            env={
                **os.environ,
                "PBEM_DATABASE_URL": restored,
                "PBEM_SECRET_KEY": SECRET,  # the snapshots are signed with it
                "PBEM_INSTANCE_PATH": str(tmp_path),
            },
            capture_output=True,
            text=True,
        )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == f"{public_id}: ok\n"


def test_a_backup_refuses_a_keep_count_that_would_delete_everything(tmp_path):
    refused = subprocess.run(
        ["bash", str(BACKUP)],
        env={**os.environ, "PBEM_DATABASE_URL": "postgresql://x/y", "PBEM_BACKUP_KEEP": "0"},
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "PBEM_BACKUP_KEEP" in refused.stderr
