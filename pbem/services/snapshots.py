"""Engine state snapshots: a game starts from its newest stored state, not move 1.

Replaying a long Java log costs hundreds of milliseconds and every turn, page
and mail needs the position, so the pipeline stores the engine state it has
just judged (pickled, zlib-compressed, HMAC-signed with the secret key) under
the game lock; the log beside it comes from the stored moves. Per game it
keeps the newest snapshot and the first one of every block of
CHECKPOINT_PLIES, so a page of any earlier ply replays at most one block.

The move log stays the truth. A snapshot is used only when it was made by this
very engine code (a fingerprint of the engine's sources and the ruleset
version), its signature holds and its log digest matches the stored moves up to
its ply; the moves after it are replayed on. A share of loads
(PBEM_SNAPSHOT_CHECK_PERCENT) is checked against a full replay, as is every
snapshot by `pbem verify`: a snapshot that disagrees is logged and forgotten,
and the full replay is what is served.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import pickle
import random
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

from flask import current_app, has_app_context
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

import engine
from pbem.models import GameSnapshot

log = logging.getLogger(__name__)

CHECKPOINT_PLIES = 100


def _engine_sources_digest() -> str:
    """The engine's code: any change to it makes every snapshot stale."""
    root = Path(engine.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


ENGINE_DIGEST = _engine_sources_digest()


def fingerprint(record: engine.Record) -> str:
    return hashlib.sha256(f"{ENGINE_DIGEST}:{record.ruleset}:{record.version}".encode()).hexdigest()


def log_digest(record: engine.Record, ply: int) -> str:
    """The game's setup and its first `ply` moves; seat names and withdrawals
    are not in it, since they change without a move and are set on load."""
    setup = [record.ruleset, record.version, len(record.seats), record.seed, record.options]
    moves = "".join(f"\n{entry.seat}:{entry.text}" for entry in record.moves[:ply])
    return hashlib.sha256(json.dumps(setup, sort_keys=True).encode() + moves.encode()).hexdigest()


@dataclass(frozen=True)
class Settings:
    key: bytes
    check_percent: int


def _settings() -> Settings | None:
    """None outside an app (a bare script): then every game is replayed."""
    if not has_app_context():
        return None
    config = current_app.config
    return Settings(config["SECRET_KEY"].encode(), config["PBEM_SNAPSHOT_CHECK_PERCENT"])


def _sign(key: bytes, data: bytes) -> str:
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def from_scratch(record: engine.Record, ply: int) -> engine.Game:
    """The first `ply` moves replayed from the setup: the truth."""
    return engine.Game.from_record(replace(record, moves=record.moves[:ply]))


def replayed(session: Session | None, game_id: int, record: engine.Record, ply: int) -> engine.Game:
    """The game after its first `ply` moves, from the nearest snapshot at or before it."""
    settings = _settings()
    if settings is None or session is None:
        return from_scratch(record, ply)
    row = session.scalars(
        select(GameSnapshot)
        .where(
            GameSnapshot.game_id == game_id,
            GameSnapshot.ply <= ply,
            GameSnapshot.fingerprint == fingerprint(record),
        )
        .order_by(GameSnapshot.ply.desc())
        .limit(1)
    ).first()
    if row is None:
        return from_scratch(record, ply)
    played = _loaded(row, record, settings.key)
    if played is None:
        forget(session, game_id)
        return from_scratch(record, ply)
    played.replay(record.moves[row.ply : ply])
    if random.randrange(100) < settings.check_percent:
        truth = from_scratch(record, ply)
        if differences(played, truth):
            log.error("game %s: snapshot at ply %s disagrees with the log", game_id, row.ply)
            forget(session, game_id)
            return truth
    return played


def _loaded(row: GameSnapshot, record: engine.Record, key: bytes) -> engine.Game | None:
    """The snapshot's game, with the log and today's seat names and
    withdrawals from the record; None (and why, in the log) when it may not
    be trusted."""
    if not hmac.compare_digest(row.signature, _sign(key, row.data)):
        log.warning("game %s: snapshot at ply %s has a bad signature", row.game_id, row.ply)
        return None
    if row.log_digest != log_digest(record, row.ply):
        log.warning("game %s: snapshot at ply %s is not of this log", row.game_id, row.ply)
        return None
    state = pickle.loads(zlib.decompress(row.data))
    return engine.Game.resume(replace(record, moves=record.moves[: row.ply]), state)


def keep(session: Session, game_id: int, setup: engine.Record, played: engine.Game) -> None:
    """Store `played`, whose log the caller has just stored after the game's
    `setup`, as the newest snapshot, in the caller's transaction, which must
    hold the game's lock. Stale snapshots go; the first of each block of plies
    stays as a checkpoint."""
    settings = _settings()
    ply = len(played.log)
    if settings is None or ply == 0:
        return
    current = fingerprint(setup)
    stored = session.execute(
        select(GameSnapshot.ply, GameSnapshot.fingerprint)
        .where(GameSnapshot.game_id == game_id)
        .order_by(GameSnapshot.ply)
    ).all()
    plies = [earlier for earlier, made_by in stored if made_by == current]
    gone = {earlier for earlier, made_by in stored if made_by != current}  # other engine code
    if ply not in plies:
        checkpoints: dict[int, int] = {}
        for earlier in [*plies, ply]:
            checkpoints.setdefault(earlier // CHECKPOINT_PLIES, earlier)
        gone |= set(plies) - set(checkpoints.values())
    if gone:
        session.execute(
            delete(GameSnapshot).where(GameSnapshot.game_id == game_id, GameSnapshot.ply.in_(gone))
        )
    if ply in plies:
        return
    data = zlib.compress(pickle.dumps(played.state, pickle.HIGHEST_PROTOCOL), 1)
    session.add(
        GameSnapshot(
            game_id=game_id,
            ply=ply,
            fingerprint=current,
            log_digest=log_digest(replace(setup, moves=played.log), ply),
            signature=_sign(settings.key, data),
            data=data,
        )
    )


def forget(session: Session, game_id: int) -> None:
    """Drop a game's snapshots; its next turn stores a fresh one."""
    session.execute(delete(GameSnapshot).where(GameSnapshot.game_id == game_id))


def differences(played: engine.Game, truth: engine.Game) -> list[str]:
    """How a game restored from a snapshot differs from the full replay, as
    every seat and a spectator see it and as each acting seat may move."""
    found = []
    if [entry.text for entry in played.log] != [entry.text for entry in truth.log]:
        found.append("the move log differs")
    for seat in [None, *range(len(truth.seats))]:
        if played.view(seat) != truth.view(seat):
            found.append(f"the view of {'a spectator' if seat is None else f'seat {seat}'} differs")
    for seat in sorted(truth.state.to_act()):
        mine = sorted(map(played.state.format_move, played.state.legal_moves(seat)))
        if mine != sorted(map(truth.state.format_move, truth.state.legal_moves(seat))):
            found.append(f"the legal moves of seat {seat} differ")
    return found


def verify(session: Session, game_id: int, record: engine.Record) -> list[str]:
    """Every snapshot of the game checked against one full replay of its log."""
    settings = _settings()
    if settings is None:
        return []
    rows = session.scalars(
        select(GameSnapshot)
        .where(GameSnapshot.game_id == game_id, GameSnapshot.fingerprint == fingerprint(record))
        .order_by(GameSnapshot.ply)
    ).all()
    truth = from_scratch(record, 0)
    problems = []
    for row in rows:
        if row.ply > len(record.moves):
            problems.append(f"snapshot at ply {row.ply} is past the log's end")
            continue
        truth.replay(record.moves[len(truth.log) : row.ply])
        played = _loaded(row, record, settings.key)
        if played is None:
            problems.append(f"snapshot at ply {row.ply} may not be trusted")
            continue
        problems += [f"snapshot at ply {row.ply}: {found}" for found in differences(played, truth)]
    return problems
