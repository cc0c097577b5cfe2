"""What the seat list tells about a player's clock, every time in the
reader's zone with how far off it is: since when the game waits for them,
their deadline (and whether they are drawing on their bank), the bank left;
and, for the other players of the game only, the player's own time of day and
their vacation (where someone lives and that they are away are not for
anonymous watchers)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from pbem.i18n.times import duration, local_time, time_of_day
from pbem.models import Game, GameStatus, Seat
from pbem.services import vacation
from pbem.services.deadlines import bank_left


@dataclass(frozen=True)
class SeatTimes:
    their_time: str | None = None  # "14:05", or "Fri 02:05" when their day is not the reader's
    waiting_since: str | None = None
    deadline: str | None = None
    drawing_bank: bool = False  # past their own days: the bank is running
    timed_out: bool = False
    clock_stopped: bool = False  # owes a move, but no deadline: a pause or an open-ended stop
    bank_left: str | None = None
    vacation_until: str | None = None
    on_vacation: bool = False  # with no end set when `vacation_until` is None

    def __bool__(self) -> bool:
        """False when there is nothing to show."""
        return any(vars(self).values())


def seat_times(
    session: Session,
    game: Game,
    seat: Seat,
    *,
    zone: str,
    player_id: int | None,
    now: datetime,
    name_zone: bool = False,
) -> SeatTimes | None:
    """The clock of a player's seat (None for bots and open seats). `player_id`:
    the reader, if they play in this game (they see private things);
    `name_zone`: write the zone's name after each time (for readers whose
    zone is not known, who see UTC)."""
    if seat.user is None or seat.bot is not None:
        return None

    def when(moment: datetime) -> str:
        return local_time(moment, zone, now, name_zone=name_zone)

    active = game.status == GameStatus.ACTIVE
    clocked = active and game.days_per_move is not None
    owes = active and seat.position in game.to_act and seat.asked_at is not None
    private = player_id is not None
    away = vacation.current(session, seat.user.id, now) if private else None
    return SeatTimes(
        their_time=_their_time(seat, zone, now) if private and seat.user_id != player_id else None,
        waiting_since=when(seat.asked_at) if owes and seat.asked_at else None,
        deadline=when(seat.timeout_at) if owes and clocked and seat.timeout_at else None,
        drawing_bank=owes and clocked and seat.deadline is not None and now > seat.deadline,
        timed_out=owes and seat.timed_out,
        clock_stopped=owes and clocked and seat.timeout_at is None,
        bank_left=duration(bank_left(session, seat, now)) if clocked and game.bank_days else None,
        vacation_until=when(away.ended_at) if away and away.ended_at else None,
        on_vacation=away is not None,
    )


def _their_time(seat: Seat, zone: str, now: datetime) -> str:
    assert seat.user is not None
    theirs = now.astimezone(ZoneInfo(seat.user.time_zone))
    ours = now.astimezone(ZoneInfo(zone))
    return time_of_day(theirs, with_day=theirs.date() != ours.date())
