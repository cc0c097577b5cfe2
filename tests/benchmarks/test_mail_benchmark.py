"""A smoke run of benchmarks/mail.py, not its figures: three single actions
of a Java game, the first two in the middle of a turn (no mail), the third
ending it (a mail to each seat, sent row by row and as one batch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.system  # runs the script in a fresh Python, as its users do
def test_a_short_run_prints_the_mails_of_each_submission():
    run = subprocess.run(
        [sys.executable, "benchmarks/mail.py", "--turns", "3", "--from-ply", "40"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    printed = run.stdout
    rows = [line.split() for line in printed.splitlines() if line[:5].strip().isdigit()]
    assert [row[:2] for row in rows] == [["41", "0"], ["42", "0"], ["43", "3"]], printed
    assert printed.count("no mail") == 2, printed
    assert "row by row: 3 mails" in printed and "3 SMTP connections" in printed, printed
    assert "batch     : 3 mails" in printed and "1 SMTP connections" in printed, printed
