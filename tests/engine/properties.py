"""Property checks every ruleset must pass, shared by each game's test module."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine import Game, Record, State, Trial
from engine.bots.random_play import KindsBot, RandomBot
from engine.core.rng import SeededRandom

Scramble = Callable[[State, int | None], None]


def play_checked(
    name: str,
    players: int,
    seed: str,
    options: Mapping[str, Any] | None = None,
    *,
    scramble: Scramble,
    sample: int = 12,
    every: int = 1,
    inspect: Callable[[Game, int], None] | None = None,
    max_moves: int = 20_000,
) -> Game:
    """A random bot game checked every `every` moves: `sample` listed moves
    are legal, round-trip through their text and apply; no view shows the
    seed or changes when `scramble(state, viewer)` alters everything that
    viewer may not see; `inspect(game, seat)` adds a game's own checks. The
    finished game replays from its record to the identical state."""
    # A seed no view could hold by chance, so finding it means a leak.
    seed = f"secret-seed/{seed}"
    game = Game.new(name, [f"s{i}" for i in range(players)], seed, options)
    bot = RandomBot(seed)
    pick = SeededRandom(seed, "sample")
    while not game.state.is_over():
        assert len(game.log) < max_moves, "game does not end"
        acting = sorted(game.state.to_act())
        assert acting, "nobody may act in an unfinished game"
        seat = acting[0]
        if len(game.log) % every == 0:
            check_position(game, seat, pick, sample)
            check_views(game, scramble)
            if inspect:
                inspect(game, seat)
        game.push(seat, bot.choose(game.state, seat))
    assert game.state.to_act() == frozenset()
    assert game.view(None)["seed"] == game.seed
    replayed = Game.from_record(Record.loads(game.to_record().dumps()))
    assert replayed.state == game.state
    assert replayed.log == game.log
    return game


def check_position(game: Game, seat: int, pick: SeededRandom, sample: int) -> None:
    state = game.state
    for other in range(state.players):
        if other not in state.to_act():
            assert state.legal_moves(other) == []
    moves = state.legal_moves(seat)
    assert moves, f"seat {seat} must act but has no legal move"
    assert len(set(moves)) == len(moves), "a move is listed twice"
    for move in pick.sample(moves, min(sample, len(moves))):
        text = state.format_move(move)
        assert state.parse_move(seat, text) == move, text
        state.copy().push(seat, move)


def check_views(game: Game, scramble: Scramble) -> None:
    """A view depends only on what its viewer may know."""
    for viewer in [None, *range(len(game.seats))]:
        view = game.view(viewer)
        assert json.dumps(game.seed) not in json.dumps(view)
        disguised = game.copy()
        scramble(disguised.state, viewer)
        assert disguised.view(viewer) == view, viewer


@dataclass(frozen=True)
class Chance:
    """How a game hides chance, for the trial checks."""

    shuffle: Callable[[State, random.Random], None]  # reorder every face-down source
    shown: Callable[[Mapping[str, Any], int], Counter[Any]]  # items a view shows its seat
    drawing: frozenset[str] = frozenset()  # move texts always tried when legal


def trials_along(
    name: str,
    players: int,
    seed: str,
    chance: Chance,
    options: Mapping[str, Any] | None = None,
    *,
    every: int = 1,
    sample: int = 6,
    max_moves: int = 20_000,
) -> Game:
    """A bot game (every kind of move, draws included) whose acting seat tries
    moves every `every` moves (see check_trials)."""
    game = Game.new(name, [f"s{i}" for i in range(players)], f"secret-seed/{seed}", options)
    bot = KindsBot(seed)
    pick = SeededRandom(seed, "trials")
    while not game.state.is_over() and len(game.log) < max_moves:
        seat = min(game.state.to_act())
        if len(game.log) % every == 0:
            check_trials(game, seat, chance, pick, sample)
        game.push(seat, bot.choose(game.state, seat))
    return game


def check_trials(game: Game, seat: int, chance: Chance, pick: SeededRandom, sample: int) -> None:
    """A trial shows only what the seat would know without the draw: nothing
    chance hides reaches it (every seat's view of it, and the seat's picture,
    stay the same however the face-down sources are ordered), and every item
    it shows the seat is in the seat's view after the real move."""
    texts = [game.state.format_move(m) for m in game.state.legal_moves(seat)]
    tried = set(pick.sample(texts, min(sample, len(texts)))) | (chance.drawing & set(texts))
    for text in sorted(tried):
        trial = game.trial(seat, [text])
        assert trial.checked == (text,) and trial.unchecked == ()
        disguised = game.copy()
        chance.shuffle(disguised.state, random.Random(f"{game.seed}/{len(game.log)}/{text}"))
        other = disguised.trial(seat, [text])
        assert _trial_seen(other) == _trial_seen(trial), text
        real = game.copy()
        real.play(seat, text)
        shown = chance.shown(trial.view()["state"], seat)
        extra = shown - chance.shown(real.view(seat)["state"], seat)
        assert not extra, (text, extra)


def _trial_seen(trial: Trial) -> tuple[Any, ...]:
    views = [trial.game.view(viewer) for viewer in [None, *range(len(trial.game.seats))]]
    return (*views, trial.text_picture())
