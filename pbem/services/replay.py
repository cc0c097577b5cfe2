"""Rebuilding a game's engine state from the stored move log."""

from __future__ import annotations

from dataclasses import replace

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import Session, object_session

import engine
from pbem.models import Game, GameStatus, Move, Seat
from pbem.services import snapshots
from pbem.services.errors import Conflict


def record_of(game: Game) -> engine.Record:
    return replace(setup_of(game), moves=_logged_moves(game))


def setup_of(game: Game) -> engine.Record:
    """The game's record without its moves: what a replay starts from."""
    return engine.Record(
        ruleset=game.ruleset,
        version=game.ruleset_version,
        seats=[seat.name for seat in game.seats],
        seed=game.seed,
        options=dict(game.options),
        withdrawn=[seat.position for seat in _left(game)],
    )


def _logged_moves(game: Game) -> list[engine.LoggedMove]:
    """The log as plain rows unless the game's moves are loaded already:
    building a thousand ORM objects costs more than replaying from a snapshot."""
    positions = {seat.id: seat.position for seat in game.seats}
    session = _query_session(game)
    if session is None:
        return [engine.LoggedMove(positions[move.seat_id], move.text) for move in game.moves]
    rows = session.execute(
        select(Move.seat_id, Move.text).where(Move.game_id == game.id).order_by(Move.ply)
    )
    return [engine.LoggedMove(positions[seat_id], text) for seat_id, text in rows]


def moves_stored(game: Game) -> int:
    session = _query_session(game)
    if session is None:
        return len(game.moves)
    return session.scalar(select(func.count()).where(Move.game_id == game.id)) or 0


def _query_session(game: Game) -> Session | None:
    """The session to read the game's moves through, or None when they are
    in memory already (or the game belongs to no session)."""
    return None if "moves" in game.__dict__ else object_session(game)


def _left(game: Game) -> list[Seat]:
    """Seats whose players resigned or lost them on time, the first to leave
    first: they rank last."""
    left = [(seat.resigned_at, seat) for seat in game.seats if seat.resigned_at is not None]
    return [seat for _, seat in sorted(left, key=lambda pair: pair[0])]


def engine_game(game: Game, ply: int | None = None) -> engine.Game:
    """The game after its first `ply` moves (all when None): the stored log is
    the truth, replayed on from the nearest snapshot (pbem.services.snapshots)."""
    if game.status == GameStatus.OPEN:
        raise Conflict(_("the game has not started: it is waiting for players"))
    record = record_of(game)
    last = len(record.moves)
    return snapshots.replayed(object_session(game), game.id, record, last if ply is None else ply)


def verify_game(game: Game) -> list[str]:
    """Replay the whole log from scratch and compare it with what the pipeline
    stored beside it (the turn cache, the status, the snapshots): the
    problems found, if any."""
    record = record_of(game)
    try:
        played = snapshots.from_scratch(record, len(record.moves))
    except engine.ReplayError as exc:
        return [f"the log does not replay: {exc}"]
    problems = []
    # An abandoned game stopped where it stood: nobody is to act, whatever the rules say.
    abandoned = game.abandoned_at is not None
    to_act = [] if abandoned else sorted(played.state.to_act())
    if list(game.to_act) != to_act:
        problems.append(f"stored to_act {list(game.to_act)} but the log gives {to_act}")
    over = played.state.is_over() or abandoned
    if over != (game.status == GameStatus.FINISHED):
        problems.append(
            f"stored status {game.status} but the log gives a game that is "
            + ("over" if over else "going on")
        )
    for move, entry in zip(game.moves, played.log, strict=True):
        if move.text != entry.text:
            problems.append(f"move {move.ply} is stored as {move.text!r}, not {entry.text!r}")
    session = object_session(game)
    if session is not None:
        problems += snapshots.verify(session, game.id, record)
    return problems
