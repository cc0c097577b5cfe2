"""The tests that read the wall clock pass at any hour the suite runs at: CI
runs at night and at weekends too. A pytest of their own runs each of them
once per hour below, with the wall clock moved there (tests/wall_clock.py);
one process for all the hours, so they share its start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system  # starts a pytest of its own

ROOT = Path(__file__).resolve().parent.parent

# Quiet hours (22:00-08:00 for every new user), digests at the reader's hour,
# reminders, deadlines, vacations, stops and league digests: what mails are
# held or sent, and when, depends on the hour these tests start at.
WALL_CLOCK_TESTS = [
    "tests/server/test_metrics.py::test_the_state_comes_from_the_database_and_the_broker",
    "tests/server/clock/test_quiet_mail.py",
    "tests/server/clock/test_digest.py",
    "tests/server/clock/test_deadlines.py",
    "tests/server/clock/test_clock_mails.py",
    "tests/server/clock/test_vacation.py",
    "tests/server/clock/test_stops.py",
    "tests/server/clock/test_calendar.py",
    "tests/server/clock/test_league_digest_settings.py",
    "tests/server/leagues/test_league_digest.py",
]

HOURS = [
    "2026-11-25T03:00",  # a weekday night
    "2026-11-25T13:00",  # a weekday afternoon
    "2026-11-28T23:30",  # a Saturday before midnight
    "2026-03-29T00:30",  # Paris moving its clocks forward
    "2026-10-25T00:30",  # Paris moving its clocks back
]


def test_the_wall_clock_tests_pass_at_every_hour() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--wall-clock",
            ",".join(HOURS),
            *WALL_CLOCK_TESTS,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
