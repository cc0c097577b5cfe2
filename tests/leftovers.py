"""What a run of the tests must leave as it found it, looked at before and
after the session by the process that runs it (not by xdist's test
processes); the run fails naming what it left:

- compiled modules in the checkout. `./dev test` sends them to the virtual
  environment (PYTHONPYCACHEPREFIX); a command a test starts with an
  environment of its own, without that setting, compiles what it imports
  beside the sources (tests/leagues/test_schedule.py did, on every run).
  Looked at only where the setting is made.
- tasks on the default queues (pbem.config.QUEUE_SETTINGS) of the test
  Redis. A test app takes queues of its own (`own_queues`) and forgets them;
  one made without them sent its bots' tasks to the default, where nothing
  took them (74 were found there) but any test worker on it would have."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from pbem.config import QUEUE_SETTINGS, Config
from tests.services import REDIS_URL

NOT_THE_CHECKOUTS = frozenset({".git", ".venv", "node_modules"})


def compiled_modules(root: Path) -> set[str]:
    found = set()
    for folder, subfolders, _ in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in NOT_THE_CHECKOUTS]
        if "__pycache__" in subfolders:
            subfolders.remove("__pycache__")
            cache = Path(folder, "__pycache__")
            found.update(str((cache / name).relative_to(root)) for name in os.listdir(cache))
    return found


def default_queues() -> list[str]:
    """The queues an app uses when its settings name none (the environment's)."""
    settings = Config().settings(".")
    return [settings[name] for name in QUEUE_SETTINGS]


def tasks_on_default_queues() -> set[str]:
    """'queue: task (id)' for each task waiting there; none if Redis is not
    there (the tests that need it say so themselves)."""
    broker = redis.Redis.from_url(REDIS_URL)
    found = set()
    try:
        for queue in default_queues():
            for message in broker.lrange(queue, 0, -1):
                headers = json.loads(message).get("headers", {})
                found.add(f"{queue}: {headers.get('task')} ({headers.get('id')})")
    except redis.ConnectionError:
        return set()
    finally:
        broker.close()
    return found


def _looks(config: pytest.Config) -> list[tuple[str, Callable[[], set[str]]]]:
    if hasattr(config, "workerinput"):
        return []
    looks = [("tasks left on the test Redis's default queues", tasks_on_default_queues)]
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        root = config.rootpath
        looks.append(("compiled modules written into the checkout", lambda: compiled_modules(root)))
    return looks


_at_start = pytest.StashKey[list[tuple[str, Callable[[], set[str]], set[str]]]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_at_start] = [
        (what, look, look()) for what, look in _looks(session.config)
    ]


def pytest_sessionfinish(session: pytest.Session) -> None:
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    for what, look, before in session.config.stash.get(_at_start, []):
        left = sorted(look() - before)
        if not left:
            continue
        if reporter is not None:
            reporter.write_sep("=", what, red=True)
            reporter.write_line(", ".join(left))
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
