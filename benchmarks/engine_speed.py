"""Engine costs per ruleset and the hot spots of issue 12: prints figures, asserts nothing.

    .venv/bin/python benchmarks/engine_speed.py [--repeats 5] [--positions 1000]

Every game and position comes from seeded bot games, so each run measures
the same work; each figure is a median of repeats (the machine is shared).
  - per ruleset: replay of a whole bot game, and legal moves and one move
    (parse, check, apply) at an early and a late ply;
  - Taluva legal tile placements and legal builds, µs per position, medians
    over `--positions` bot positions of each step;
  - Java `Land.move_costs` per first and repeat call on a position (every
    developer of positions along a long game), one developer move, and
    replay + one move at move 20 and at later plies of that game.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from engine import Game, Record, rulesets
from engine.core.selfplay import play_bot_game
from engine.games.java.state import JavaState
from engine.games.taluva.state import BUILD, LAY_TILE, TaluvaState

PLAYERS = 3
EARLY_PLY = 20
LATE_FRACTION = 0.8
# A 2-player bot game of 1,810 moves, about as long as the longest Java
# game of the issue (1,831 moves).
LONG_JAVA = ("java", 2, "long-0")


def median_us(run: Callable[[], Any], repeats: int) -> float:
    """Median wall time of `run` in µs."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def prefix(record: Record, plies: int) -> Record:
    """The record of the game's first `plies` moves."""
    cut = Record.from_json(record.to_json())
    cut.moves = cut.moves[:plies]
    return cut


def one_move_us(record: Record, ply: int, repeats: int) -> float:
    """Parse, check and apply the logged move after `ply` moves, on fresh copies."""
    game = Game.from_record(prefix(record, ply))
    entry = record.moves[ply]
    copies = [game.copy() for _ in range(repeats)]
    times = []
    for copy in copies:
        started = time.perf_counter()
        copy.play(entry.seat, entry.text)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def legal_us(record: Record, ply: int, repeats: int) -> float:
    game = Game.from_record(prefix(record, ply))
    seat = record.moves[ply].seat
    return median_us(lambda: game.state.legal_moves(seat), repeats)


def per_ruleset(repeats: int) -> None:
    print(f"bot games of {PLAYERS} players; early ply {EARLY_PLY}, late ply at {LATE_FRACTION:.0%}")
    print(
        f"{'game':8} {'moves':>6} {'replay ms':>10} {'late ply':>8} "
        f"{'legal early µs':>15} {'legal late µs':>14} {'move early µs':>14} {'move late µs':>13}"
    )
    for ruleset in rulesets():
        record = play_bot_game(ruleset.name, PLAYERS, "bench-1").game.to_record()
        late = int(len(record.moves) * LATE_FRACTION)
        replay_ms = median_us(partial(Game.from_record, record), repeats) / 1000
        print(
            f"{ruleset.name:8} {len(record.moves):6d} {replay_ms:10.1f} {late:8d} "
            f"{legal_us(record, EARLY_PLY, repeats):15.0f} {legal_us(record, late, repeats):14.0f} "
            f"{one_move_us(record, EARLY_PLY, repeats):14.0f} "
            f"{one_move_us(record, late, repeats):13.0f}"
        )


def taluva_positions(count: int) -> dict[str, list[TaluvaState]]:
    """`count` positions of each step, from seeded bot games of 2 to 4 players."""
    found: dict[str, list[TaluvaState]] = {LAY_TILE: [], BUILD: []}

    def keep(game: Game, seat: int, move: Any) -> None:
        state = game.state  # copied before the bot asks it anything
        assert isinstance(state, TaluvaState)
        if not state.is_over() and len(found[state.phase]) < count:
            found[state.phase].append(state.copy())

    number = 0
    while min(len(states) for states in found.values()) < count:
        play_bot_game("taluva", 2 + number % 3, f"tiles-{number}", on_move=keep)
        number += 1
    return found


def first_call_us(state: TaluvaState, repeats: int) -> float:
    """Legal moves asked once of fresh copies of a position, as in play: what
    a position works out when first asked is in the time."""
    copies = [state.copy() for _ in range(repeats)]
    times = []
    for copy in copies:
        started = time.perf_counter()
        copy.legal_moves(copy.current)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def taluva_legal(count: int, repeats: int) -> None:
    positions = taluva_positions(count)
    print(f"\nTaluva legal moves, µs per position over {count} bot positions of each step")
    print(f"{'step':8} {'median':>8} {'p90':>8} {'moves (median)':>15}")
    for phase, states in positions.items():
        times = [first_call_us(state, repeats) for state in states]
        sizes = [len(s.legal_moves(s.current)) for s in states]
        p90 = statistics.quantiles(times, n=10)[-1]
        print(
            f"{phase:8} {statistics.median(times):8.0f} {p90:8.0f} {statistics.median(sizes):15.0f}"
        )


def java_long_game(repeats: int) -> None:
    name, players, seed = LONG_JAVA
    record = play_bot_game(name, players, seed).game.to_record()
    total = len(record.moves)
    print(f"\nJava, a long bot game ({players} players, seed {seed!r}, {total} moves)")
    game = Game.new(name, record.seats, record.seed, record.options)
    states: list[JavaState] = []
    for ply, entry in enumerate(record.moves):
        if ply % 10 == 0:
            state = game.state
            assert isinstance(state, JavaState)
            states.append(state.copy())
        game.play(entry.seat, entry.text)
    fresh = [replace(state.land) for state in states]  # shallow, nothing worked out yet
    first, again = [], []
    for land in fresh:
        for cell in land.developers:
            started = time.perf_counter()
            land.move_costs(cell)
            first.append((time.perf_counter() - started) * 1e6)
            again.append(median_us(partial(land.move_costs, cell), repeats))
    print(
        f"Land.move_costs: {statistics.median(first):.0f} µs per first call on a position, "
        f"{statistics.median(again):.0f} µs per repeat ({len(first)} calls)"
    )
    walks = [ply for ply, e in enumerate(record.moves) if e.text.startswith("move ")]
    walk = statistics.median(one_move_us(record, ply, repeats) for ply in walks[::10])
    print(f"a developer move (parse, check, apply): {walk:.0f} µs ({len(walks[::10])} moves)")
    print(f"{'ply':>6} {'replay + one move ms':>21} {'one move µs':>12} {'legal µs':>9}")
    for ply in (EARLY_PLY, total // 2, total - 30):
        cut = prefix(record, ply + 1)
        both = median_us(partial(Game.from_record, cut), repeats) / 1000
        print(
            f"{ply:6d} {both:21.1f} {one_move_us(record, ply, repeats):12.0f} "
            f"{legal_us(record, ply, repeats):9.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--positions", type=int, default=1000)
    args = parser.parse_args()
    per_ruleset(args.repeats)
    taluva_legal(args.positions, args.repeats)
    java_long_game(args.repeats)


if __name__ == "__main__":
    main()
