"""A smoke run of benchmarks/mail.py, not its figures: three single actions
of a Java game, the first two in the middle of a turn (no mail), the third
ending it (a mail to each seat, sent row by row and as one batch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def mail_benchmark(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "benchmarks/mail.py", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.system  # runs the script in a fresh Python, as its users do
def test_a_short_run_prints_the_mails_of_each_submission():
    run = mail_benchmark("--turns", "3", "--from-ply", "40")
    assert run.returncode == 0, run.stderr
    printed = run.stdout
    rows = [line.split() for line in printed.splitlines() if line[:5].strip().isdigit()]
    assert [row[:2] for row in rows] == [["41", "0"], ["42", "0"], ["43", "3"]], printed
    assert printed.count("no mail") == 2, printed
    assert "row by row: 3 mails" in printed and "3 SMTP connections" in printed, printed
    assert "batch     : 3 mails" in printed and "1 SMTP connections" in printed, printed


@pytest.mark.system
def test_a_run_that_mails_nobody_says_so_without_a_traceback():
    """Two actions in the middle of a turn: nothing to measure (the run of
    the defaults once divided by zero, its ten actions all in one turn)."""
    run = mail_benchmark("--turns", "2", "--from-ply", "40")
    assert run.returncode == 1, run.stderr
    assert run.stdout.count("no mail") == 2, run.stdout
    assert "ended a turn, so none mailed anyone: give more --turns" in run.stderr
    assert "Traceback" not in run.stderr, run.stderr


@pytest.mark.system
def test_the_default_run_reaches_turn_ends_and_prints_its_totals():
    """The defaults pick their actions from one stored bot game: they must
    reach turns that mail (the old ones fell into a turn of 182 free walks)."""
    run = mail_benchmark()
    assert run.returncode == 0, run.stderr
    assert "row by row: 15 mails" in run.stdout and "batch     : 15 mails" in run.stdout, run.stdout
