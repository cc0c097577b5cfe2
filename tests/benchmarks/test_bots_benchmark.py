"""The bot benchmark's statistics (Wilson intervals, the Elo ladder) and a
smoke run of the benchmark itself: a few seconds, not its figures."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.bots import Job, Played, elo_ladder, first_place_share, report, wilson

ROOT = Path(__file__).resolve().parents[2]


def test_wilson_interval_of_a_known_proportion():
    low, high = wilson(81, 100)
    assert low == pytest.approx(0.7222, abs=1e-3)
    assert high == pytest.approx(0.8749, abs=1e-3)


def test_a_clean_sweep_still_has_an_interval_below_one():
    low, high = wilson(200, 200)
    assert 0.98 < low < 1.0 and high == pytest.approx(1.0)


def test_the_ladder_puts_random_at_zero_and_orders_the_levels():
    games = [("easy", "random", 1.0)] * 75 + [("easy", "random", 0.0)] * 25
    games += [("medium", "easy", 1.0)] * 75 + [("medium", "easy", 0.0)] * 25
    ladder = elo_ladder(games)
    assert ladder["random"] == 0
    # 75% is about 191 Elo points per step.
    assert ladder["easy"] == pytest.approx(191, abs=10)
    assert ladder["medium"] == pytest.approx(382, abs=20)


def test_a_shared_first_place_counts_its_share():
    assert first_place_share([[0, 2], [1]], 2) == 0.5
    assert first_place_share([[1], [0]], 0) == 0.0


def test_a_game_that_never_ended_is_named_and_counted_in_no_figure():
    table = ("random", "strong", "random")
    played = [
        Played(Job("java", table, "t-0"), [[1], [0, 2]], {"strong": [0.2], "random": [0.001]}),
        Played(Job("java", table, "t-1"), [], {}),
    ]
    figures = report("java", played)
    assert figures["tables"]["3"]["games"] == 1 and figures["tables"]["3"]["score"] == 1.0
    assert figures["unfinished"] == ["t-1"]
    assert figures["seconds"]["strong"]["decisions"] == 1


def run_benchmark(*arguments: object) -> subprocess.CompletedProcess[str]:
    small = ["--rulesets", "taluva", "--pairs", "easy-random", "--tables", "0", "--workers", "1"]
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bots", *small, *map(str, arguments)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return run


@pytest.mark.system  # the benchmark plays in a pool of processes
def test_a_short_run_prints_and_writes_its_figures(tmp_path):
    figures = tmp_path / "bots.json"
    run = run_benchmark("--games", 2, "--json", figures)
    [taluva] = json.loads(figures.read_text())
    assert taluva["ruleset"] == "taluva" and taluva["pairs"]["easy-random"]["games"] == 2
    assert set(taluva["seconds"]) == {"easy", "random"} and set(taluva["elo"]) == {"easy", "random"}
    assert "easy v random" in run.stdout


@pytest.mark.system
def test_a_run_with_a_games_log_plays_only_the_games_it_lacks(tmp_path):
    log, figures = tmp_path / "games.jsonl", tmp_path / "bots.json"
    run_benchmark("--games", 1, "--games-log", log)
    [first] = log.read_text().splitlines()
    run_benchmark("--games", 2, "--games-log", log, "--json", figures)
    lines = log.read_text().splitlines()
    assert lines[0] == first and len(lines) == 2
    assert {json.loads(line)["seed"] for line in lines} == {
        "bench-easy-random-0",
        "bench-easy-random-1",
    }
    [taluva] = json.loads(figures.read_text())
    assert taluva["pairs"]["easy-random"]["games"] == 2
