import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.toy_game  # noqa: F401  (registers the toy ruleset for core tests)

pytest_plugins = ["pytester", "tests.wall_clock", "tests.leftovers"]
QUICK_STAND_IN = "random"
# A 'moved' mail goes at once in tests, as it did before it waited for the
# 'your turn' that tells it too; tests/mail/test_fewer_mails.py sets a wait.
os.environ.setdefault("PBEM_MOVED_MAIL_WAIT_SECONDS", "0")
# Fixtures that start a process: Chromium (Playwright) and the mail rig's
# private Dovecot. A test using one is a `system` test wherever it lives.
SYSTEM_FIXTURES = frozenset({"chromium", "imap_server"})
# The quick tier (`./dev test --quick`): the rules, the notation, the
# pictures and the schedules, in folders that need no service, less the
# tests marked `heavy` (whole games, processes).
QUICK_FOLDERS = ("engine", "render", "leagues")
TESTS = Path(__file__).parent


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Mark the tests of SYSTEM_FIXTURES `system` before `-m` chooses; once
    pytest has chosen and grouped the tests by database, start each test
    process's share with its turn of the system tests. They are the longest
    (whole installs, a pytest per hour): started last they would leave one
    process running alone at the end."""
    for item in items:
        if SYSTEM_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.system)
        if in_quick_folder(item.path) and not item.get_closest_marker("heavy"):
            item.add_marker(pytest.mark.quick)
    yield
    items[:] = system_first_in_each_share(
        items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", 1))
    )


def in_quick_folder(path: Path) -> bool:
    return path.is_relative_to(TESTS) and path.relative_to(TESTS).parts[0] in QUICK_FOLDERS


def system_first_in_each_share(items: list[pytest.Item], shares: int) -> list[pytest.Item]:
    """xdist's work stealing hands each process one contiguous share of the
    list, so each share here starts with its turn of the system tests, dealt
    round, and goes on with its slice of the rest in order (each database's
    tests stay together)."""
    system = [item for item in items if item.get_closest_marker("system")]
    rest = [item for item in items if not item.get_closest_marker("system")]
    ordered: list[pytest.Item] = []
    for share in range(shares):
        ordered += system[share::shares]
        ordered += rest[len(rest) * share // shares : len(rest) * (share + 1) // shares]
    return ordered


@pytest.hookimpl(wrapper=True)
def pytest_collection() -> Iterator[object]:
    """What collection makes (modules, test items, the engines' tables) lives
    to the end. While it is made, the collector looks for no cycles: each of
    its full collections walked the growing heap of modules again (a test
    process collects in 2.2 CPU-s, not 2.5). Then it is frozen, out of the
    collector's reach, and the collector looks for cycles less often: with
    Python's thresholds each full collection walked that whole heap again,
    6-9 CPU-s per test process (measured with gc.callbacks), 2.5 s now, for
    10 MB more memory at most. (xdist's controller collects nothing: it only
    freezes what it has.)"""
    gc.disable()
    try:
        return (yield)
    finally:
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 10, 10)
        gc.enable()


# The fixtures that build an app on a database: its tests run on PostgreSQL,
# production's database, and those marked `also_sqlite` on the embedded
# default's SQLite as well (the list: docs/development.md).
APP_FIXTURES = ("app", "rig")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    databases = ["postgresql"]
    if metafunc.definition.get_closest_marker("also_sqlite"):
        databases = ["sqlite", "postgresql"]
    chosen = {  # tests that name their database themselves keep it
        name.strip()
        for mark in metafunc.definition.iter_markers("parametrize")
        for name in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])
    }
    for name in APP_FIXTURES:
        if name in metafunc.fixturenames and name not in chosen:
            metafunc.parametrize(name, databases, indirect=True, scope="session")


@pytest.fixture(scope="session", autouse=True)
def instance_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Apps made by tests keep their files (mail, secret key) out of the checkout."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_INSTANCE_PATH", str(tmp_path_factory.mktemp("instance")))
        # Stand-ins (timeouts, resignations, withdrawals) play at once where
        # the level does not matter; the tests of the levels choose theirs.
        patch.setenv("PBEM_STAND_IN", QUICK_STAND_IN)
        yield
