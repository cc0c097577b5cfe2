"""`pytest --wall-clock WHEN`: the tests run as if the wall clock read WHEN
(ISO 8601, UTC unless it names an offset) when the session starts.

time-machine moves Python's wall clock (`time.time`, `datetime.now`...) for
every thread of the test process, ticking on from WHEN; the monotonic clock,
and so every wait and timeout, stays real. Processes the tests start and the
database and Redis servers keep the real clock. tests/test_any_hour.py runs
the tests that read the wall clock at several hours this way."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

TRAVEL = pytest.StashKey[time_machine.travel]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--wall-clock",
        metavar="WHEN",
        help="run as if the wall clock read WHEN (ISO 8601, UTC unless it says) at the start",
    )


def wall_clock(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def pytest_configure(config: pytest.Config) -> None:
    when = config.getoption("--wall-clock")
    if when:
        travel = time_machine.travel(wall_clock(when), tick=True)
        travel.start()
        config.stash[TRAVEL] = travel


def pytest_unconfigure(config: pytest.Config) -> None:
    travel = config.stash.get(TRAVEL, None)
    if travel is not None:
        travel.stop()


def pytest_report_header(config: pytest.Config) -> str | None:
    when = config.getoption("--wall-clock")
    return f"wall clock moved to {wall_clock(when).isoformat()}" if when else None
