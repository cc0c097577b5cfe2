"""Shared steps of the clock tests: players in a zone, clocked games, sweeps
whose submissions go to the real worker."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.clock.sweep import SweepReport, sweep
from pbem.models import (
    Game,
    GameEvent,
    Move,
    Outbox,
    Seat,
    Submission,
    SubmissionStatus,
    User,
    utcnow,
)
from pbem.services.events import events_of
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl
from tests.server.conftest import drain, wait_for

SEED = "test-seed"  # the deal tests/server/pipeline_helpers.py describes


def player(
    make_user: Callable[[str], User],
    name: str,
    zone: str = "UTC",
    quiet: tuple[str, str] | None = None,
    reminder_hours: int | None = None,
) -> User:
    """A user with the given zone and quiet hours; no reminders unless asked."""
    user = make_user(name)
    user.time_zone = zone
    user.quiet_start, user.quiet_end = quiet or (None, None)
    user.reminder_hours = reminder_hours
    return user


def clocked_game(
    app: Flask,
    session: Session,
    ruleset: str,
    seats: list[User | str],
    time_control: TimeControl,
) -> Game:
    """A started game with a clock; seats are users or 'bot'. Bots that move
    first are handed to the worker."""
    specs = [SeatSpec(bot="random") if s == "bot" else SeatSpec(user=s) for s in seats]
    creator = next(s for s in seats if isinstance(s, User))
    game = create_game(session, creator, ruleset, specs, seed=SEED, time_control=time_control)
    session.commit()
    return game


def sweep_now(app: Flask, session: Session) -> SweepReport:
    """One sweep at the (travelled) present; what it submits, what the bots it
    asks submit, and what bots submit after it, is judged by the real worker
    before this returns."""
    before = session.scalar(select(func.max(Submission.id))) or 0
    report = sweep(session, utcnow())
    drain(app)  # the bots' thinking and the turns it sends
    wait_for(lambda: not waiting_since(session, before), what="the sweep's moves to be judged")
    session.expire_all()
    return report


def waiting_since(session: Session, last_id: int) -> bool:
    """Whether a submission stored after `last_id` still waits to be judged."""
    session.expire_all()
    return bool(
        session.scalar(
            select(func.count()).where(
                Submission.id > last_id, Submission.status == SubmissionStatus.PENDING
            )
        )
    )


def seat_of(session: Session, game: Game, position: int) -> Seat:
    session.expire_all()
    return session.scalars(
        select(Seat).where(Seat.game_id == game.id, Seat.position == position)
    ).one()


def moves_by_channel(session: Session, game: Game) -> list[tuple[int, str, str]]:
    """(seat position, channel, text) of every move, in order."""
    session.expire_all()
    rows = session.execute(
        select(Seat.position, Move.channel, Move.text)
        .join(Seat, Seat.id == Move.seat_id)
        .where(Move.game_id == game.id)
        .order_by(Move.ply)
    )
    return [tuple(row) for row in rows]


def events_of_kind(session: Session, game: Game, kind: str) -> list[GameEvent]:
    return list(
        session.scalars(
            select(GameEvent)
            .where(GameEvent.game_id == game.id, GameEvent.kind == kind)
            .order_by(GameEvent.id)
        )
    )


def outbox_rows(session: Session, game: Game, kind: str) -> list[Outbox]:
    return list(
        session.scalars(
            select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == kind).order_by(Outbox.id)
        )
    )


def organised_game(
    app, session, organiser: User, seats: list[SeatSpec], ruleset: str = "taluva", **clock
) -> Game:
    """A game with 1 day per move (or `clock`), made by `organiser`; no quiet
    hours, so deadlines fall where the arithmetic says."""
    for spec in seats:
        if spec.user is not None:
            spec.user.quiet_start = spec.user.quiet_end = None
    control = TimeControl(**{"days_per_move": 1, **clock})
    game = create_game(session, organiser, ruleset, seats, seed=SEED, time_control=control)
    session.commit()
    return game


def fresh(session, model, row_id):
    """The row as the database holds it now."""
    session.expire_all()
    return session.get(model, row_id)


def swept(session, game: Game) -> list[str]:
    """Sweep (every game of the database, as the beat does) and say which
    events this game has then."""
    sweep(session)
    return [event.kind for event in events_of(session, game)]
