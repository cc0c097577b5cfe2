"""The issue's "Done when", with real processes: a newcomer runs `pbem serve`,
three players make a Taluva game with 1 day per move through the API, the first
goes silent, and a `pbem sweep` run two days ahead of the system clock (Debian's
faketime, which deploy/test-services.sh installs) times the turn out: the
served worker plays it with the clock's bot and everyone gets the mail."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from pbem import create_app
from pbem.cli import main
from pbem.models import Game, GameEvent, Move, User
from tests.mail.helpers import text_of
from tests.server.conftest import wait_for
from tests.server.server_processes import Api, embedded_env, started_server, stopped

pytestmark = pytest.mark.system  # starts `pbem serve` and `pbem sweep` under faketime

PBEM = str(Path(sys.executable).parent / "pbem")
PLAYERS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cat": "cat@example.org"}


def served_mails(folder: Path, subject_part: str) -> dict[str, str]:
    """Recipient address -> plain text of the served mails whose subject has `subject_part`."""
    found = {}
    for path in folder.glob("*.eml"):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        if subject_part in str(message["Subject"]):
            found[message["To"].addresses[0].addr_spec] = text_of(message)
    return found


def test_a_silent_player_is_timed_out_by_a_sweep_two_days_later(tmp_path, monkeypatch):
    assert shutil.which("faketime"), "faketime is missing: run deploy/test-services.sh"
    server, port = started_server(tmp_path, PBEM_SWEEP_SECONDS="2")
    try:
        monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
        app = create_app()
        runner = app.test_cli_runner()
        tokens = {}
        for name, email in PLAYERS.items():
            assert runner.invoke(main, ["user", "create", email, "--name", name]).exit_code == 0
            tokens[name] = runner.invoke(main, ["user", "token", email]).output.strip()
        database = app.extensions["pbem.db"]
        with database.session() as session:
            # No quiet hours: the deadline and the mails do not wait for the morning.
            for user in session.scalars(select(User)):
                user.quiet_start = user.quiet_end = None
            session.commit()

        api = Api(f"http://127.0.0.1:{port}")
        clock = {"days_per_move": 1}
        body = {"ruleset": "taluva", "seats": ["me", "open", "open"], "time_control": clock}
        game_id = api.call("POST", "/games", tokens["Ann"], body)["id"]
        api.call("POST", f"/games/{game_id}/join", tokens["Bob"], {})
        game = api.call("POST", f"/games/{game_id}/join", tokens["Cat"], {})
        assert (game["status"], game["to_act"]) == ("active", [0])
        assert game["time_control"]["days_per_move"] == 1
        assert game["seats"][0]["deadline"] is not None and game["seats"][1]["deadline"] is None

        swept = subprocess.run(
            ["faketime", "-f", "+2d", PBEM, "sweep"],
            # Python's thread waits deadlock under libfaketime's monotonic clock.
            env=embedded_env(tmp_path, FAKETIME_DONT_FAKE_MONOTONIC="1"),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert swept.returncode == 0, swept.stdout + swept.stderr
        assert swept.stdout.strip().endswith("1 timeouts applied"), swept.stdout

        def bob_to_act() -> Any:
            now = api.call("GET", f"/games/{game_id}", tokens["Cat"])
            return now if now["to_act"] == [1] else None

        now = wait_for(bob_to_act, 60, "the clock's bot to play Ann's turn")
        ann, bob, _ = now["seats"]
        assert ann["deadline"] is None and ann["kind"] == "user"  # Ann keeps her seat
        assert bob["deadline"] is not None
        view = api.call("GET", f"/games/{game_id}/seats/0/view", tokens["Ann"])
        assert {entry["seat"] for entry in view["view"]["history"]} == {0}

        with database.session() as session:
            stored = session.scalar(select(Game).where(Game.public_id == game_id))
            moves = session.scalars(select(Move).where(Move.game_id == stored.id)).all()
            assert moves and {move.channel for move in moves} == {"clock"}
            events = session.scalars(select(GameEvent).where(GameEvent.game_id == stored.id))
            assert [(e.kind, e.seat_position) for e in events] == [("timeout", 0)]

        folder = tmp_path / "mail"
        wait_for(
            lambda: len(served_mails(folder, "timeout of Ann")) == 3,
            60,
            "the timeout mail to reach all three players",
        )
        mails = served_mails(folder, "timeout of Ann")
        assert set(mails) == set(PLAYERS.values())
        assert (
            "You ran out of time. A bot made this move for you; you keep your seat."
            in (mails["ann@example.org"])
        )
        assert (
            "Ann ran out of time. A bot made this move for them; they keep their seat."
            in (mails["cat@example.org"])
        )
        for text in mails.values():
            assert "Time control: 1 day per move; on timeout a bot plays that move." in text
        database.dispose()
    finally:
        output = stopped(server, signal.SIGINT)
    assert server.returncode == 0, output
