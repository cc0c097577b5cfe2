"""The race harness (tests/server/race_harness.py) briefly, on PostgreSQL:
random concurrent writers leave no violation. A count of operations, not
a time, so every machine races the same kinds of operation. Longer seeded
runs are made with `python -m tests.server.race_harness --seconds 60 --runs 10`."""

from __future__ import annotations

from tests.server.race_harness import Until, race

OPERATIONS = 50  # from each of the 6 clients


def test_a_short_seeded_race_leaves_every_invariant_true():
    report = race(Until(operations=OPERATIONS), seed=2026)
    assert report["violations"] == [], report
    moves = sum(count for answer, count in report["answers"].items() if answer.startswith("move"))
    assert moves > 20, report  # the clients did race
