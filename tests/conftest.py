from collections.abc import Iterator

import pytest

import tests.toy_game  # noqa: F401  (registers the toy ruleset for core tests)

pytest_plugins = ["tests.wall_clock"]
QUICK_STAND_IN = "random"
# Fixtures that start a process: Chromium (Playwright) and the mail rig's
# private Dovecot. A test using one is a `system` test wherever it lives.
SYSTEM_FIXTURES = frozenset({"chromium", "imap_server"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of SYSTEM_FIXTURES `system` before `-m` chooses."""
    for item in items:
        if SYSTEM_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.system)


@pytest.fixture(scope="session", autouse=True)
def instance_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Apps made by tests keep their files (mail, secret key) out of the checkout."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_INSTANCE_PATH", str(tmp_path_factory.mktemp("instance")))
        # Stand-ins (timeouts, resignations, withdrawals) play at once where
        # the level does not matter; the tests of the levels choose theirs.
        patch.setenv("PBEM_STAND_IN", QUICK_STAND_IN)
        yield
