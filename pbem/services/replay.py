"""Rebuilding a game's engine state from the stored move log."""

from __future__ import annotations

import engine
from pbem.models import Game, GameStatus, Seat
from pbem.services.errors import Conflict


def record_of(game: Game) -> engine.Record:
    positions = {seat.id: seat.position for seat in game.seats}
    return engine.Record(
        ruleset=game.ruleset,
        version=game.ruleset_version,
        seats=[seat.name for seat in game.seats],
        seed=game.seed,
        options=dict(game.options),
        moves=[engine.LoggedMove(positions[move.seat_id], move.text) for move in game.moves],
        withdrawn=[seat.position for seat in sorted(_left(game), key=lambda s: s.resigned_at)],
    )


def _left(game: Game) -> list[Seat]:
    """Seats whose players resigned or lost them on time: they rank last."""
    return [seat for seat in game.seats if seat.resigned_at is not None]


def engine_game(game: Game) -> engine.Game:
    """Replay the stored log: the database's moves are the game's truth.
    Linear in the game's length; no snapshot cache is needed at these sizes."""
    if game.status == GameStatus.OPEN:
        raise Conflict("the game has not started: it is waiting for players")
    return engine.Game.from_record(record_of(game))


def verify_game(game: Game) -> list[str]:
    """Replay the whole log from scratch and compare it with what the pipeline
    stored beside it (the turn cache, the status): the problems found, if any."""
    try:
        played = engine_game(game)
    except engine.ReplayError as exc:
        return [f"the log does not replay: {exc}"]
    problems = []
    to_act = sorted(played.state.to_act())
    if list(game.to_act) != to_act:
        problems.append(f"stored to_act {list(game.to_act)} but the log gives {to_act}")
    over = played.state.is_over()
    if over != (game.status == GameStatus.FINISHED):
        problems.append(
            f"stored status {game.status} but the log gives a game that is "
            + ("over" if over else "going on")
        )
    for move, entry in zip(game.moves, played.log, strict=True):
        if move.text != entry.text:
            problems.append(f"move {move.ply} is stored as {move.text!r}, not {entry.text!r}")
    return problems
