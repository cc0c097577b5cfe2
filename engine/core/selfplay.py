"""Bots playing whole games: the engine's own end-to-end check and benchmark."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.bots.random_play import SELFPLAY_BOTS
from engine.core.game import Game

MAX_MOVES = 20_000


@dataclass
class SelfplayGame:
    game: Game
    moves: int
    milliseconds: float


def play_bot_game(
    name: str,
    players: int,
    seed: str,
    options: Mapping[str, Any] | None = None,
    on_move: Callable[[Game, int, Any], None] | None = None,
    bot: str = "uniform",
) -> SelfplayGame:
    """Every seat a random bot (`bot` names which, see `SELFPLAY_BOTS`); the lowest
    acting seat moves first, so the result depends only on the seed.
    `on_move(game, seat, move)` follows along."""
    seats = [f"bot{i + 1}" for i in range(players)]
    started = time.perf_counter()
    game = Game.new(name, seats, seed, options)
    player = SELFPLAY_BOTS[bot](seed)
    while not game.state.is_over():
        if len(game.log) >= MAX_MOVES:
            raise RuntimeError(f"{name} game with seed {seed!r} did not end in {MAX_MOVES} moves")
        seat = min(game.state.to_act())
        move = player.choose(game.state, seat)
        game.push(seat, move)
        if on_move:
            on_move(game, seat, move)
    elapsed = (time.perf_counter() - started) * 1000
    return SelfplayGame(game, len(game.log), elapsed)
