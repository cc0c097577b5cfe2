"""What saved Java games contained: prints figures, asserts nothing.

    .venv/bin/python -m engine selfplay java --players 3 --games 20 --seed 1 --save DIR
    .venv/bin/python benchmarks/java_games.py DIR

Each record is replayed move by move, which also proves it still replays.
Counted: moves by kind, festivals, pond scorings, overhanging tiles, palaces
built and enlarged, and how each game ended.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from engine import Game, Record
from engine.games.java.notation import PlaceTile
from engine.games.java.state import JavaState


def tally(record: Record, counts: Counter[str]) -> None:
    game = Game.new(record.ruleset, record.seats, record.seed, record.options, record.version)
    state = game.state
    assert isinstance(state, JavaState)
    for entry in record.moves:
        move = state.parse_move(entry.seat, entry.text)
        counts[f"move: {entry.text.split()[0]}"] += 1
        if isinstance(move, PlaceTile) and state.land.overhang(move.cells):
            counts["overhanging tiles"] += 1
        game.push(entry.seat, move)
    events = state.events
    counts["ponds closed"] += sum(1 for e in events if e.startswith("pond "))
    counts["ponds scored"] += sum(1 for e in events if e.startswith("pond ") and "scores" in e)
    result = game.state.result()
    counts[f"ended: {result.reason if result else 'not over'}"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path, help="records saved by `selfplay --save`")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    records = sorted(args.folder.glob("*.json"))
    for path in records:
        tally(Record.load(path), counts)
    print(f"games {len(records)}")
    for name, count in sorted(counts.items()):
        print(f"{name:32} {count:7}")


if __name__ == "__main__":
    main()
