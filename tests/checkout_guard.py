"""A run of the tests writes no compiled modules into the checkout. `./dev
test` sends them to the virtual environment (PYTHONPYCACHEPREFIX); a command
a test starts with an environment of its own, without that setting, compiles
what it imports beside the sources instead (tests/leagues/test_schedule.py
did, on every run, and nothing failed). Where the setting is made, the run
fails and names the files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOT_THE_CHECKOUTS = frozenset({".git", ".venv", "node_modules"})
_found_at_start = pytest.StashKey[set[Path]]()


def compiled_modules(root: Path) -> set[Path]:
    found = set()
    for folder, subfolders, _ in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in NOT_THE_CHECKOUTS]
        if "__pycache__" in subfolders:
            subfolders.remove("__pycache__")
            cache = Path(folder, "__pycache__")
            found.update(cache / name for name in os.listdir(cache))
    return found


def _guards(config: pytest.Config) -> bool:
    """Where compiled modules have a place of their own, in the process that
    runs the session (not in xdist's test processes)."""
    return bool(os.environ.get("PYTHONPYCACHEPREFIX")) and not hasattr(config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    if _guards(session.config):
        session.config.stash[_found_at_start] = compiled_modules(session.config.rootpath)


def pytest_sessionfinish(session: pytest.Session) -> None:
    at_start = session.config.stash.get(_found_at_start, None)
    if at_start is None:
        return
    root = session.config.rootpath
    written = sorted(path.relative_to(root) for path in compiled_modules(root) - at_start)
    if not written:
        return
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "compiled modules written into the checkout", red=True)
        reporter.write_line(
            "a command started without PYTHONPYCACHEPREFIX wrote: " + ", ".join(map(str, written))
        )
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
