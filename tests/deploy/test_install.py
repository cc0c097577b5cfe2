"""deploy/install.sh and deploy/upgrade.sh run for real, as root, into
temporary folders with a throwaway user, database and queue: a second install
changes nothing and says so, and an upgrade migrates before it restarts the
services in order and finds the installation ready.

systemd does not run here, so the scripts get a systemctl that records what it
is asked (PBEM_SYSTEMCTL); everything else is the real thing."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.deploy.installation import (
    INSTALL,
    UPGRADE,
    Layout,
    environment_file,
    layout,
    need_root,
    release_copy,
    run,
    unit_file,
)
from tests.server.conftest import forget_queue
from tests.services import POSTGRES_URL, REDIS_URL

pytestmark = pytest.mark.system  # starts the install script as root

STATIC_FILE = "pbem.css"
POSTGRES_SOCKET = Path("/var/run/postgresql/.s.PGSQL.5432")
SERVICES = [
    "pbem.target",
    "pbem-web.service",
    "pbem-worker@1.service",
    "pbem-worker@2.service",
    "pbem-bots.service",
    "pbem-notices.service",
    "pbem-beat.service",
    "pbem-smtpd.service",
]
RECORDING_SYSTEMCTL = """#!/usr/bin/env bash
# systemctl where systemd does not run: records each call; a unit is enabled
# and active once it was enabled with --now.
echo "$*" >>{log}
unit=${{@: -1}}
case $1 in
is-enabled | is-active) grep -qxF "enable --now --quiet $unit" {log} ;;
list-units) grep -o '^enable --now --quiet pbem-worker@.*' {log} | cut -d' ' -f4 |
    sed 's/$/ loaded active running/' ;;
esac
"""


def recording_systemctl(where: Path) -> tuple[Path, Path]:
    log = where / "systemctl.log"
    log.touch()
    program = where / "systemctl"
    program.write_text(RECORDING_SYSTEMCTL.format(log=log))
    program.chmod(0o755)
    return program, log


def snapshot(*folders: Path) -> dict[str, tuple]:
    """Every file, folder and link under `folders`: kind, owner, mode, size,
    content time and link target; what a run that changes nothing leaves alone."""
    found = {}
    for folder in folders:
        for path in [folder, *sorted(folder.rglob("*"))]:
            status = path.lstat()
            found[str(path)] = (
                status.st_mode,
                status.st_uid,
                status.st_gid,
                status.st_size,
                status.st_mtime_ns,
                os.readlink(path) if path.is_symlink() else None,
            )
    return found


def database_revision(database: str) -> str:
    engine = create_engine(make_url(POSTGRES_URL).set(database=database))
    try:
        with engine.connect() as connection:
            return connection.scalar(text("SELECT version_num FROM alembic_version"))
    finally:
        engine.dispose()


def drop_database(name: str) -> None:
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'DROP ROLE IF EXISTS "{name}"'))
    admin.dispose()


def as_user(place: Layout, *command: str) -> subprocess.CompletedProcess[str]:
    """A pbem command as the services run it: their user and pbem.env."""
    settings = environment_file(place.env_file)
    return subprocess.run(
        ["runuser", "-u", place.user, "--", "env", "-i", "PATH=/usr/bin:/bin"]
        + [f"{name}={value}" for name, value in settings.items()]
        + [str(place.prefix / "venv" / "bin" / "pbem"), *command],
        cwd=place.state_dir,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_install_twice_changes_nothing_and_an_upgrade_migrates_then_restarts(tmp_path):
    need_root()
    if not POSTGRES_SOCKET.exists():
        pytest.skip("install.sh makes the role and database in the PostgreSQL of this machine")
    queue = f"pbem-install-{uuid.uuid4().hex[:8]}"
    with layout() as place:
        systemctl, calls = recording_systemctl(tmp_path)
        # The local database over its socket, as the user: the template's way.
        url = f"postgresql+psycopg://{place.user}@/{place.user}?host={POSTGRES_SOCKET.parent}"
        env = place.environment(
            PBEM_DATABASE_URL=url,
            PBEM_BROKER_URL=REDIS_URL,
            PBEM_TASK_QUEUE=queue,
            PBEM_BOT_QUEUE=f"{queue}-bots",
            PBEM_NOTICE_QUEUE=f"{queue}-notices",
            PBEM_BASE_URL="https://games.example.org",
            PBEM_WORKER_INSTANCES="1 2",
            PBEM_SYSTEMCTL=str(systemctl),
        )
        # A copy of the checkout, as still as an administrator's: the other
        # tests write into the checkout meanwhile (their compiled modules).
        release = str(release_copy(tmp_path / "first-release"))
        try:
            first = run(INSTALL, env, release)
            assert f"changed: user {place.user}" in first
            assert "changed: database migrated" in first
            installed(place, url, queue)
            assert calls.read_text().splitlines()[-1] == f"enable --now --quiet {SERVICES[-1]}"
            enabled = [line for line in calls.read_text().splitlines() if "enable --now" in line]
            assert enabled == [f"enable --now --quiet {unit}" for unit in SERVICES]
            verify_units(place)

            before = snapshot(place.root, place.unit_dir)
            before_calls = calls.read_text()
            second = run(INSTALL, env | {"PBEM_SECRET_KEY": "ignored-the-file-exists"}, release)
            assert "changed:" not in second, second
            assert second.splitlines()[-1].endswith(
                "nothing to change: the installation is as it should be"
            )
            assert snapshot(place.root, place.unit_dir) == before
            assert "enable" not in calls.read_text().removeprefix(before_calls).replace(
                "is-enabled", ""
            )

            upgrade_to_a_new_release(place, env, calls, tmp_path)
        finally:
            drop_database(place.user)
            for name in ("", "-bots", "-notices"):
                forget_queue(queue + name)


def installed(place: Layout, url: str, queue: str) -> None:
    """What the first install leaves: the user's settings, the release, the
    links nginx and the units use, and a database at the newest revision."""
    settings = environment_file(place.env_file)
    assert len(settings["PBEM_SECRET_KEY"]) >= 40
    assert settings["PBEM_DATABASE_URL"] == url and settings["PBEM_TASK_QUEUE"] == queue
    assert settings["PBEM_NOTICE_QUEUE"] == f"{queue}-notices"
    assert settings["PBEM_INSTANCE_PATH"] == str(place.state_dir)
    assert settings["PBEM_ENV"] == "production"
    mode = place.env_file.stat()
    assert (mode.st_mode & 0o777, mode.st_uid) == (0o640, 0)  # the secret: root and the group
    assert (place.state_dir.owner(), place.state_dir.stat().st_mode & 0o777) == (place.user, 0o750)
    assert (place.prefix / "static" / STATIC_FILE).is_file()
    head = as_user(place, "check")
    assert head.returncode == 0, head.stdout + head.stderr
    assert database_revision(place.user) == current_head()
    for unit in ("pbem-web.service", "pbem-worker@.service"):
        service = unit_file(place.unit_dir / unit)
        assert service["Service.ExecStart"][0].startswith(str(place.prefix / "venv" / "bin"))
        assert service["Service.User"] == [place.user]
        assert service["Service.EnvironmentFile"] == [str(place.env_file)]
        assert service["Service.ReadWritePaths"] == [str(place.state_dir)]


def current_head() -> str:
    from alembic.script import ScriptDirectory

    from pbem.migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config(None)).get_current_head()


def verify_units(place: Layout) -> None:
    """systemd's own check of the installed units (their programs exist now)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    units = sorted(str(path) for path in place.unit_dir.iterdir())
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def upgrade_to_a_new_release(
    place: Layout, env: dict[str, str], calls: Path, tmp_path: Path
) -> None:
    """The database one migration behind, a changed release: upgrade.sh
    migrates it, then restarts workers, bots, beat, mail door and web in that order,
    and pbem check passes; the earlier release stays for going back."""
    down = as_user(place, "db", "downgrade", "--", "-1")
    assert down.returncode == 0, down.stderr
    release = release_copy(tmp_path / "release")
    with (release / "pbem" / "__init__.py").open("a") as module:
        module.write("# the next release\n")
    before_calls = calls.read_text()
    output = run(UPGRADE, env, str(release))
    assert "changed: database migrated" in output
    migrated_at = output.index("Running upgrade")
    restarts = [line for line in output.splitlines() if ": restarted " in line]
    assert [line.rsplit(" ", 1)[1] for line in restarts] == [
        "pbem-worker@1.service",
        "pbem-worker@2.service",
        "pbem-bots.service",
        "pbem-notices.service",
        "pbem-beat.service",
        "pbem-smtpd.service",
        "pbem-web.service",
    ]
    assert migrated_at < output.index(restarts[0])
    new_calls = calls.read_text().removeprefix(before_calls).splitlines()
    assert [call for call in new_calls if call.startswith("restart")] == [
        f"restart {line.rsplit(' ', 1)[1]}" for line in restarts
    ]
    assert '"status": "ready"' in output
    assert len(list((place.prefix / "releases").iterdir())) == 2
    assert str(release) in (place.prefix / "venv" / ".." / "installed").read_text()
    assert database_revision(place.user) == current_head()
    again = run(UPGRADE, env, str(release))
    assert "nothing restarted" in again and "changed:" not in again
