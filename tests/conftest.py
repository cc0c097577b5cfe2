from collections.abc import Iterator

import pytest

import tests.toy_game  # noqa: F401  (registers the toy ruleset for core tests)

pytest_plugins = ["tests.wall_clock"]


@pytest.fixture(scope="session", autouse=True)
def instance_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Apps made by tests keep their files (mail, secret key) out of the checkout."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_INSTANCE_PATH", str(tmp_path_factory.mktemp("instance")))
        yield
