"""Installations made by the real deploy/install.sh into temporary folders, as a
throwaway user, and reading what it installed: units and pbem.env."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
INSTALL = DEPLOY / "install.sh"
UPGRADE = DEPLOY / "upgrade.sh"


def need_root() -> None:
    """Users, folders owned by them and `runuser` need root; nothing else does."""
    if os.geteuid() != 0:
        pytest.skip("installing needs root (a user of its own, runuser)")
    for tool in ("runuser", "useradd", "userdel"):
        if shutil.which(tool) is None:
            pytest.skip(f"installing needs {tool}")


@dataclass(frozen=True)
class Layout:
    """Where one installation lives: all under `root`, its user a new one."""

    root: Path
    user: str

    @property
    def prefix(self) -> Path:
        return self.root / "opt"

    @property
    def config_dir(self) -> Path:
        return self.root / "etc"

    @property
    def env_file(self) -> Path:
        return self.config_dir / "pbem.env"

    @property
    def unit_dir(self) -> Path:
        return self.root / "units"

    @property
    def state_dir(self) -> Path:
        return self.root / "state"

    def environment(self, **settings: str) -> dict[str, str]:
        """What install.sh and upgrade.sh are run with: this machine's
        environment (pip's settings) without any pbem setting, the layout, and
        `settings` for a new pbem.env."""
        kept = {name: value for name, value in os.environ.items() if not name.startswith("PBEM_")}
        return kept | {
            "PBEM_PREFIX": str(self.prefix),
            "PBEM_CONFIG_DIR": str(self.config_dir),
            "PBEM_UNIT_DIR": str(self.unit_dir),
            "PBEM_INSTANCE_PATH": str(self.state_dir),
            "PBEM_USER": self.user,
            **settings,
        }


@contextmanager
def layout() -> Iterator[Layout]:
    """A folder the new user can reach (pytest's tmp_path is root's only) and
    the user's name; the user, its group and the folder are gone afterwards."""
    root = Path(tempfile.mkdtemp(prefix="pbem-install-"))
    root.chmod(0o755)
    user = f"pbemt{uuid.uuid4().hex[:8]}"
    try:
        yield Layout(root, user)
    finally:
        subprocess.run(["userdel", user], capture_output=True)
        subprocess.run(["groupdel", user], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def run(script: Path, env: dict[str, str], *args: str) -> str:
    """Run install.sh or upgrade.sh; its output (with errors), which must end well."""
    done = subprocess.run(
        [str(script), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout
    return done.stdout


def environment_file(path: Path) -> dict[str, str]:
    """NAME -> value of an environment file, read as systemd's EnvironmentFile."""
    found = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        name, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        found[name.strip()] = value
    return found


def unit_file(path: Path) -> dict[str, list[str]]:
    """'Section.Key' -> its values in order, of a systemd unit file (a key may repeat)."""
    found: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return found


def release_copy(into: Path) -> Path:
    """A copy of this checkout's release files (what install.sh installs from a
    source folder), to change into a new release."""
    checkout = DEPLOY.parent
    into.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(checkout / name, into / name)
    for package in ("engine", "pbem", "worker"):
        shutil.copytree(
            checkout / package, into / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return into
