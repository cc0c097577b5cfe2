"""`pytest --wall-clock WHEN[,WHEN...]`: each test runs once per WHEN, as if
the wall clock read WHEN (ISO 8601, UTC unless it names an offset) when the
test starts.

time-machine moves Python's wall clock (`time.time`, `datetime.now`...) for
every thread of the test process, ticking on from WHEN until the test ends;
the monotonic clock, and so every wait and timeout, stays real. Processes the
tests start and the database and Redis servers keep the real clock.
tests/test_any_hour.py runs the tests that read the wall clock at several
hours this way, in one process: the hours share its start-up."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import time_machine


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--wall-clock",
        metavar="WHEN[,WHEN...]",
        help="run each test as if the wall clock read WHEN (ISO 8601, UTC unless it says) "
        "at its start, once per WHEN",
    )


def wall_clock(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def hours(config: pytest.Config) -> list[datetime]:
    option = config.getoption("--wall-clock")
    return [wall_clock(text.strip()) for text in option.split(",")] if option else []


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    chosen = hours(metafunc.config)
    if chosen:
        metafunc.parametrize(
            "moved_wall_clock",
            chosen,
            ids=[f"at {when.isoformat()}" for when in chosen],
            indirect=True,
        )


@pytest.fixture(autouse=True)
def moved_wall_clock(request: pytest.FixtureRequest) -> Iterator[None]:
    """Set up before the test's other function fixtures (autouse), so the
    users and games they make are made at the moved hour too."""
    when = getattr(request, "param", None)
    if when is None:
        yield
        return
    with time_machine.travel(when, tick=True):
        yield


def pytest_report_header(config: pytest.Config) -> str | None:
    chosen = hours(config)
    return "wall clock moved to " + ", ".join(w.isoformat() for w in chosen) if chosen else None
