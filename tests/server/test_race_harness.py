"""The race harness (tests/server/race_harness.py) briefly, on PostgreSQL:
random concurrent writers leave no violation. Longer seeded runs are made
with `python -m tests.server.race_harness --seconds 60 --runs 10`."""

from __future__ import annotations

from tests.server.race_harness import race


def test_a_short_seeded_race_leaves_every_invariant_true():
    report = race(seconds=20, seed=2026)
    assert report["violations"] == [], report
    moves = sum(count for answer, count in report["answers"].items() if answer.startswith("move"))
    assert moves > 20, report  # the clients did race
