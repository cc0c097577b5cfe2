"""A smoke run of benchmarks/pipeline.py, not its figures: eight turns of its
light mix on the fewest processes (one web, one worker, the bots' and the
notices' workers, the beat) on PostgreSQL and Redis, with a game of bots
thinking beside and a player pointing hooks and devices at receivers that
hold every request: turns are played and applied, their "your turn" mails
reach its SMTP sink, the bots move on their own worker, and it leaves no
process or database behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from benchmarks.pipeline import arguments, run
from pbem.models import SubmissionStatus
from tests.services import POSTGRES_URL

pytestmark = pytest.mark.system  # starts pbem web, worker and beat


def test_light_run_plays_applies_and_mails(capsys):
    fewest = ["--workers", "1", "--web-workers", "1"]
    bots = ["--bot-games", "1", "--bot-level", "easy"]  # a bots' game thinking beside
    hostile = ["--hostile", "2,5"]
    report = run(arguments(["--light", "--turns", "8", "--drain", "30", *fewest, *bots, *hostile]))
    printed = capsys.readouterr().out

    assert report.errors == [], printed
    assert report.turns_per_second > 0, printed
    assert report.timings and all(
        t.status == SubmissionStatus.ACCEPTED and t.applied is not None for t in report.timings
    ), printed
    assert {t.kind for t in report.timings} == {"java 4p late", "taluva 3p"}, printed
    assert 0 < report.mails["arrived"] == report.mails["queued"], printed
    assert "turns/s" in printed and "worker RSS" in printed and "CPU in the steady phase" in printed
    assert report.cpu["pbem worker"] > 0 and report.cpu["pbem web"] > 0, printed
    assert report.bot_moves > 0 and "games of easy bots" in printed, printed
    assert "hostile receivers asked: " in printed, printed

    assert not any(Path(f"/proc/{pid}").exists() for pid in report.pids)
    admin = create_engine(POSTGRES_URL)
    with admin.connect() as connection:
        names = connection.scalars(text("SELECT datname FROM pg_database")).all()
    admin.dispose()
    assert make_url(report.database).database not in names
