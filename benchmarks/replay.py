"""Replay cost per game and per move: prints figures, asserts nothing.

    .venv/bin/python benchmarks/replay.py [--games 5]

For each ruleset, bots play a few games; each record is then replayed in
full and up to half its length, so the per-move cost of the two can be
compared (it should be about the same: replay is linear in the moves).
"""

from __future__ import annotations

import argparse
import time

from engine import Game, Record, rulesets
from engine.core.selfplay import play_bot_game


def replay_ms(record: Record) -> float:
    started = time.perf_counter()
    Game.from_record(record)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':8} {'moves':>7} {'ms/game':>9} {'us/move':>9} {'us/move (half)':>15}")
    for ruleset in rulesets():
        records = [
            play_bot_game(ruleset.name, args.players, f"bench-{i}").game.to_record()
            for i in range(args.games)
        ]
        moves = sum(len(r.moves) for r in records)
        full = sum(replay_ms(r) for r in records)
        halves = []
        for record in records:
            half = Record.from_json(record.to_json())
            half.moves = half.moves[: len(half.moves) // 2]
            halves.append(half)
        half_ms = sum(replay_ms(r) for r in halves)
        half_moves = sum(len(r.moves) for r in halves)
        print(
            f"{ruleset.name:8} {moves // args.games:7d} {full / args.games:9.1f} "
            f"{full * 1000 / moves:9.1f} {half_ms * 1000 / max(half_moves, 1):15.1f}"
        )


if __name__ == "__main__":
    main()
