"""How strong the bot levels are (issue 25): prints figures, asserts nothing.

    .venv/bin/python -m benchmarks.bots [--rulesets java,taluva,samurai]
        [--pairs easy-random,...] [--games 200] [--tables 100] [--workers 2]
        [--seed bench] [--json FILE] [--games-log FILE]

Per ruleset, on the engine alone (`engine.bots.match`):
  - 2-player matches between levels, seats swapped every other game: each
    level against the one below it, `strong` against `easy` and against
    `random` (or the `--pairs` named); the higher level's score (a win 1, a
    shared first place ½) with its 95% Wilson interval;
  - tables of `strong` and random bots at 3 and 4 players, `strong`'s seat
    moving round the table: how often it finishes first (alone or shared);
  - an Elo ladder of the levels fitted to every 2-player game
    (Bradley-Terry, `random` at 0);
  - process seconds per decision of each level: mean, p95 and max;
  - the seeds of games that did not end within engine.bots.match's cap,
    counted in no other figure.
Budgets are iterations, so the strength figures do not depend on the
machine; the seconds do (one core per worker process).

The whole run is hours of CPU: with `--games-log` each finished game is
appended to a JSON-lines file, and a run given the same file plays only the
games it does not hold yet, so an interrupted run goes on where it stopped.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from engine.bots import LEVELS
from engine.bots.match import UnendedGame, play_match_game

PAIRS = (
    ("easy", "random"),
    ("medium", "easy"),
    ("strong", "medium"),
    ("strong", "easy"),
    ("strong", "random"),
)
TABLE_SIZES = (3, 4)
Z95 = 1.959964


@dataclass(frozen=True)
class Job:
    ruleset: str
    bots: tuple[str, ...]
    seed: str


@dataclass
class Played:
    job: Job
    ranking: list[list[int]]
    seconds: dict[str, list[float]] = field(default_factory=dict)


def logged(played: Played) -> str:
    """One line of the games log."""
    job = played.job
    return json.dumps(
        {
            "ruleset": job.ruleset,
            "bots": list(job.bots),
            "seed": job.seed,
            "ranking": played.ranking,
            "seconds": played.seconds,
        }
    )


def read_log(path: str | None) -> dict[Job, Played]:
    """The games a log already holds, by the job that played them."""
    if path is None or not os.path.exists(path):
        return {}
    games = {}
    with open(path, encoding="utf-8") as log:
        for line in log:
            if not line.strip():
                continue
            row = json.loads(line)
            job = Job(row["ruleset"], tuple(row["bots"]), row["seed"])
            games[job] = Played(job, row["ranking"], row["seconds"])
    return games


def play(job: Job) -> Played:
    """One game in a worker process; one that never ends comes back with an
    empty ranking, counted apart as unfinished."""
    try:
        game = play_match_game(job.ruleset, job.bots, job.seed)
    except UnendedGame:
        return Played(job, [], {})
    result = game.game.result()
    assert result is not None
    seconds: dict[str, list[float]] = defaultdict(list)
    for level, times in zip(job.bots, game.seconds, strict=True):
        seconds[level].extend(times)
    return Played(job, [list(g) for g in result.ranking], dict(seconds))


def wilson(score: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if games == 0:
        return (0.0, 1.0)
    p = score / games
    centre = p + Z95 * Z95 / (2 * games)
    spread = Z95 * math.sqrt(p * (1 - p) / games + Z95 * Z95 / (4 * games * games))
    denominator = 1 + Z95 * Z95 / games
    return ((centre - spread) / denominator, (centre + spread) / denominator)


def first_place_share(ranking: Sequence[Sequence[int]], seat: int) -> float:
    """1 when `seat` wins alone, 1/k when k seats share first place, else 0."""
    winners = ranking[0] if ranking else []
    return 1 / len(winners) if seat in winners else 0.0


def pair_jobs(
    ruleset: str, games: int, seed: str, pairs: Sequence[tuple[str, str]] = PAIRS
) -> list[Job]:
    jobs = []
    for high, low in pairs:
        for number in range(games):
            bots = (high, low) if number % 2 == 0 else (low, high)
            jobs.append(Job(ruleset, bots, f"{seed}-{high}-{low}-{number}"))
    return jobs


def table_jobs(ruleset: str, tables: int, seed: str) -> list[Job]:
    jobs = []
    for size in TABLE_SIZES:
        for number in range(tables):
            bots = ["random"] * size
            bots[number % size] = "strong"
            jobs.append(Job(ruleset, tuple(bots), f"{seed}-table{size}-{number}"))
    return jobs


def elo_ladder(games: Iterable[tuple[str, str, float]]) -> dict[str, float]:
    """Bradley-Terry strengths by minorisation-maximisation, as Elo with
    `random` at 0; (a, b, score of a) per game, a draw scoring ½ each."""
    wins: dict[str, float] = defaultdict(float)
    meetings: dict[tuple[str, str], int] = defaultdict(int)
    for a, b, score in games:
        wins[a] += score
        wins[b] += 1 - score
        meetings[(a, b)] += 1
        meetings[(b, a)] += 1
    levels = sorted(wins, key=LEVELS.index)
    strength = dict.fromkeys(levels, 1.0)
    for _ in range(2000):
        for level in levels:
            denominator = sum(
                meetings[(level, other)] / (strength[level] + strength[other])
                for other in levels
                if other != level
            )
            # A level that won every game has no finite strength: half a win
            # keeps it finite (a prior), which the Wilson intervals show.
            strength[level] = max(wins[level], 0.5) / denominator if denominator else 1.0
        anchor = strength.get("random", 1.0)
        strength = {k: v / anchor for k, v in strength.items()}
    return {k: 400 * math.log10(v) for k, v in strength.items()}


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def share_line(label: str, scores: Sequence[float], note: str = "") -> dict[str, Any]:
    """Print one line of a share with its interval; return it as figures."""
    low_end, high_end = wilson(sum(scores), len(scores))
    share = sum(scores) / len(scores)
    print(f"{label:<22}{len(scores):>7}{share:>8.1%}   {low_end:.1%} - {high_end:.1%}{note}")
    return {"games": len(scores), "score": share, "interval": [low_end, high_end]}


def report(ruleset: str, played: list[Played]) -> dict[str, Any]:
    """Print and return one ruleset's figures."""
    pair_scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    ladder_games = []
    tables: dict[int, list[float]] = defaultdict(list)
    seconds: dict[str, list[float]] = defaultdict(list)
    unfinished = sorted(game.job.seed for game in played if not game.ranking)
    for game in played:
        if not game.ranking:
            continue
        for level, times in game.seconds.items():
            seconds[level].extend(times)
        bots = game.job.bots
        if len(bots) == 2:
            high = max(bots, key=LEVELS.index)
            low = min(bots, key=LEVELS.index)
            score = first_place_share(game.ranking, bots.index(high))
            pair_scores[(high, low)].append(score)
            ladder_games.append((high, low, score))
        else:
            tables[len(bots)].append(first_place_share(game.ranking, bots.index("strong")))
    figures: dict[str, Any] = {"ruleset": ruleset, "pairs": {}, "tables": {}, "seconds": {}}
    print(f"\n== {ruleset}")
    print(f"{'match':<22}{'games':>7}{'score':>8}   95% interval")
    for (high, low), scores in pair_scores.items():
        figures["pairs"][f"{high}-{low}"] = share_line(f"{high} v {low}", scores)
    for size, scores in sorted(tables.items()):
        label = f"strong + {size - 1} random"
        figures["tables"][str(size)] = share_line(label, scores, "  (strong first)")
    if unfinished:
        print(f"unfinished, counted in no figure: {', '.join(unfinished)}")
        figures["unfinished"] = unfinished
    if ladder_games:
        ladder = elo_ladder(ladder_games)
        print("Elo: " + ", ".join(f"{k} {v:+.0f}" for k, v in ladder.items()))
        figures["elo"] = ladder
    print(f"{'level':<10}{'decisions':>10}{'mean s':>9}{'p95 s':>9}{'max s':>9}")
    for level in sorted(seconds, key=LEVELS.index):
        times = seconds[level]
        row = {
            "decisions": len(times),
            "mean": statistics.fmean(times),
            "p95": percentile(times, 0.95),
            "max": max(times),
        }
        figures["seconds"][level] = row
        print(
            f"{level:<10}{row['decisions']:>10}{row['mean']:>9.3f}{row['p95']:>9.3f}{row['max']:>9.3f}"
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="java,taluva,samurai")
    parser.add_argument(
        "--pairs",
        default=",".join(f"{high}-{low}" for high, low in PAIRS),
        help="the 2-player matches, higher level first",
    )
    parser.add_argument("--games", type=int, default=200, help="2-player games per pair")
    parser.add_argument("--tables", type=int, default=100, help="games per table size")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--games-log", help="append each game to this JSON-lines file; skip the games it holds"
    )
    args = parser.parse_args()
    pairs = [tuple(pair.split("-")) for pair in args.pairs.split(",")]
    print(f"{os.cpu_count()} cores, {args.workers} worker processes")
    done = read_log(args.games_log)
    everything = []
    for ruleset in args.rulesets.split(","):
        jobs = pair_jobs(ruleset, args.games, args.seed, pairs) + table_jobs(
            ruleset, args.tables, args.seed
        )
        played = [done[job] for job in jobs if job in done]
        with Pool(args.workers) as pool:
            for game in pool.imap_unordered(play, [job for job in jobs if job not in done]):
                played.append(game)
                if args.games_log:
                    with open(args.games_log, "a", encoding="utf-8") as log:
                        log.write(logged(game) + "\n")
        everything.append(report(ruleset, played))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(everything, out, indent=2)


if __name__ == "__main__":
    main()
