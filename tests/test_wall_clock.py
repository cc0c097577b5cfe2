"""`--wall-clock` (tests/wall_clock.py), which tests/test_any_hour.py relies
on: were the clock not moved, every hour there would pass at the real one."""

from __future__ import annotations

import pytest

READS_THE_HOUR = """
from datetime import UTC, datetime

def test_not_at_three():
    assert datetime.now(UTC).hour != 3
"""


def test_each_test_runs_once_per_hour_with_the_clock_moved_there(pytester: pytest.Pytester):
    pytester.makepyfile(READS_THE_HOUR)
    run = pytester.runpytest(
        "-p", "tests.wall_clock", "--wall-clock", "2026-11-25T03:00,2026-11-25T13:00"
    )
    run.assert_outcomes(passed=1, failed=1)
    run.stdout.fnmatch_lines(["*test_not_at_three*at 2026-11-25T03:00:00+00:00*"])
