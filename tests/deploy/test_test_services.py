"""deploy/test-services.sh on a Debian whose PostgreSQL its package started:
the cluster runs already (5432 answers) with Debian's own pg_hba.conf, so the
tests' trust line must be read again (a reload), on the first run and on any
later one that finds the line missing. Debian's pg_ctlcluster is stood in for
by one that records its calls (the real cluster of this machine answers on
5432 meanwhile, as the package's would)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.deploy.installation import DEPLOY

DEBIAN_HBA = (
    "local   all             postgres                                peer\n"
    "local   all             all                                     peer\n"
    "host    all             all             127.0.0.1/32            scram-sha-256\n"
)
TRUST = "host all postgres 127.0.0.1/32 trust"


def run_postgres_part(tmp_path: Path, running: bool) -> list[str]:
    """The script's PostgreSQL part against a cluster in `tmp_path`; the
    pg_ctlcluster calls it made."""
    calls = tmp_path / "calls"
    tools = tmp_path / "bin"
    tools.mkdir(exist_ok=True)
    fake = tools / "pg_ctlcluster"
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >>{calls}\n'
        f'if [ "${{@: -1}}" = status ]; then exit {0 if running else 3}; fi\n'
    )
    fake.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{tools}:{os.environ['PATH']}",
        "PBEM_TEST_POSTGRES_ETC": str(tmp_path / "etc"),
    }
    env.pop("PBEM_TEST_POSTGRES_URL", None)
    done = subprocess.run(
        ["bash", str(DEPLOY / "test-services.sh"), "postgres"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    made = calls.read_text().splitlines() if calls.exists() else []
    calls.unlink(missing_ok=True)
    return [" ".join(call.split()[-2:]) for call in made]  # "main status", "main reload"


@pytest.fixture
def cluster(tmp_path: Path) -> Path:
    hba = tmp_path / "etc" / "15" / "main" / "pg_hba.conf"
    hba.parent.mkdir(parents=True)
    hba.write_text(DEBIAN_HBA)
    return hba


def test_a_cluster_the_package_started_reads_the_trust_line(tmp_path, cluster):
    assert run_postgres_part(tmp_path, running=True) == ["main status", "main reload"]
    assert cluster.read_text().splitlines()[0] == TRUST
    # Run again: the line is there, nothing to read again; never a second line.
    assert run_postgres_part(tmp_path, running=True) == ["main status"]
    assert cluster.read_text().count(TRUST) == 1
