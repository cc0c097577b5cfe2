"""Schemathesis over the API's own OpenAPI document, against the app served
on PostgreSQL with real games, seats and a league, so generated requests
reach the views rather than stopping at 404:

    .venv/bin/python -m tests.server.fuzz_api [schemathesis run options]

e.g. `--max-examples 30 --phases examples,coverage,fuzzing`. The database is
a scratch one, dropped afterwards; rate limits are raised so the fuzzing is
not answered 429. Exits with schemathesis's status."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

from werkzeug.serving import make_server

from pbem import create_app, migrate
from pbem.db import get_db
from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from tests.server.conftest import forget_queues, own_queues, scratch_database
from tests.services import REDIS_URL

CONFIG = """\
[parameters]
game_id = "{game}"
league_id = "{league}"
position = 0
season = 1
user_id = {user}

[generation]
database = "none"
allow-x00 = false  # the document says no text may hold NUL (pbem.nul_bytes)

[cache]
enabled = false

[checks]
# 401/403/404 on ids schemathesis makes up are the point, not a failure.
ignored_auth.enabled = false
"""


def seed(app) -> dict[str, str]:
    """A player with a token, a game where they sit at seat 0, and a league season."""
    with app.app_context(), get_db().session() as session:
        ann = accounts.create_user(session, f"ann-{uuid.uuid4().hex[:6]}@example.org", "Ann")
        bob = accounts.create_user(session, f"bob-{uuid.uuid4().hex[:6]}@example.org", "Bob")
        game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
        league = create_league(session, ann, "Club", "taluva", 2, divisions=2)
        for player in (ann, bob):
            invite_entrant(session, league, ann, player.email, "https://pbem.test/league")
            join_league(session, league.public_id, player)
        start_season(session, league)
        token = accounts.issue_api_token(session, ann, "fuzz")
        session.commit()
        return {
            "game": game.public_id,
            "league": league.public_id,
            "user": str(ann.id),
            "token": token,
        }


def main(options: list[str]) -> int:
    with scratch_database() as url, tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "fuzz",
                "PBEM_DATABASE_URL": url,
                "PBEM_BROKER_URL": REDIS_URL,
                **own_queues("pbem-fuzz"),
                "PBEM_API_WRITE_LIMIT": "100000 per minute",
                "PBEM_INVITATION_LIMIT": "100000 per minute",
            }
        )
        with app.app_context():
            migrate.upgrade(get_db().engine)
        ids = seed(app)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        config = Path(folder) / "schemathesis.toml"
        config.write_text(CONFIG.format(**ids), encoding="utf-8")
        base = f"http://127.0.0.1:{server.server_port}"
        try:
            return subprocess.call(
                [
                    str(Path(sys.executable).with_name("schemathesis")),
                    "--config-file",
                    str(config),
                    "run",
                    f"{base}/api/openapi.json",
                    "--url",
                    base,
                    "-H",
                    f"Authorization: Bearer {ids['token']}",
                    *options,
                ]
            )
        finally:
            server.shutdown()
            with app.app_context():
                get_db().dispose()
            forget_queues(app)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
