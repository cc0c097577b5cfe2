from collections.abc import Iterator

import pytest

import tests.toy_game  # noqa: F401  (registers the toy ruleset for core tests)

pytest_plugins = ["tests.wall_clock"]
QUICK_STAND_IN = "random"
# Fixtures that start a process: Chromium (Playwright) and the mail rig's
# private Dovecot. A test using one is a `system` test wherever it lives.
SYSTEM_FIXTURES = frozenset({"chromium", "imap_server"})


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Mark the tests of SYSTEM_FIXTURES `system` before `-m` chooses; once
    pytest has chosen and grouped the tests by database, move the system
    tests to the front. They are the longest (whole installs, a pytest per
    hour): started last they would leave one worker running alone at the
    end. The sort is stable, so each database's tests stay together."""
    for item in items:
        if SYSTEM_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.system)
    yield
    items.sort(key=lambda item: item.get_closest_marker("system") is None)


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
