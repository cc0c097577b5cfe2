"""Each seat's deadline, kept in its row so lists, pages, mails and the sweep
read it without computing anything.

A decision starts when a seat is asked to act (`asked_at`). Its own days run
from then, counting only time outside the seat's stops: weekends in the
player's zone when the game has weekends off, the player's vacations, and the
game's pauses. Its `deadline` is when those days (plus any extension) are
used up, moved to the end of the player's quiet hours if it falls in them;
after that the bank runs, and `timeout_at` is when the bank is used up too.
Both are a pure function of the row and its stops, so any change (vacation,
pause, zone, extension) just recomputes them. When the seat acts, the bank
loses the running time it spent past its deadline: what is used is gone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from pbem.db import lock_game
from pbem.models import (
    ClockStop,
    Game,
    GameStatus,
    Seat,
    Submission,
    SubmissionStatus,
    User,
    utcnow,
)
from pbem.services.calendar import (
    DAY,
    Stop,
    advance,
    counted,
    merged,
    parse_clock_time,
    quiet_until,
    weekends,
)

# A player may ask to be reminded at most this many hours before a timeout.
MAX_REMINDER_HOURS = 168


def follow_to_act(session: Session, game: Game, newly: Iterable[int]) -> None:
    """After a change: settle the decisions that ended, start those asked for now.

    `newly` are the seats just told to act (a seat that acts again at once
    ends one decision and starts the next)."""
    now, newly = utcnow(), set(newly)
    for seat in game.seats:
        owes = seat.position in game.to_act and game.status == GameStatus.ACTIVE
        ended = not owes or seat.position in newly or not seat.played_by_person
        if seat.asked_at is not None and ended:
            settle(session, seat, _decided_at(session, seat, now))
        if owes and seat.asked_at is None and seat.played_by_person:
            ask(session, seat, now)


def _decided_at(session: Session, seat: Seat, now: datetime) -> datetime:
    """When the seat's decision was made: when its last move of it was stored,
    not when a worker got round to judging it, so a player is not charged
    bank for the server's delay."""
    stored = session.scalar(
        select(func.max(Submission.created_at)).where(
            Submission.seat_id == seat.id,
            Submission.status.in_((SubmissionStatus.ACCEPTED, SubmissionStatus.PARTIAL)),
            Submission.created_at >= seat.asked_at,
        )
    )
    return now if stored is None else min(stored, now)


def ask(session: Session, seat: Seat, now: datetime) -> None:
    seat.asked_at, seat.extra_seconds = now, 0
    seat.reminded_at = seat.timed_out_at = None
    recompute(session, seat)


def settle(session: Session, seat: Seat, now: datetime) -> None:
    """The decision is made: the bank pays for the running time past the deadline."""
    seat.bank_seconds = bank_left(session, seat, now)
    seat.asked_at = seat.deadline = seat.timeout_at = None
    seat.extra_seconds = 0
    seat.reminded_at = seat.timed_out_at = None


def bank_left(session: Session, seat: Seat, now: datetime) -> int:
    """The seconds of bank the seat has at `now`: past its deadline, the
    running time since then is drawn from it."""
    if seat.deadline is None or now <= seat.deadline:
        return seat.bank_seconds
    used = counted(seat.deadline, now, _stop_list(session, seat, seat.deadline))
    return max(0, seat.bank_seconds - round(used))


def recompute(session: Session, seat: Seat) -> None:
    """Set the seat's deadline and timeout from its decision, clock and stops.
    A timeout that moved on (a vacation, a pause, an organiser's extension)
    may be reminded of and strike again."""
    seat.deadline, seat.timeout_at = _deadline_and_timeout(session, seat)
    # A timeout is set only for a player asked to act (_deadline_and_timeout).
    if seat.timeout_at is None or seat.asked_at is None or seat.user is None:
        return
    if seat.timed_out_at is not None and seat.timeout_at > seat.timed_out_at:
        seat.timed_out_at = None
    if seat.reminded_at is not None:
        due = reminder_at(seat.asked_at, seat.timeout_at, seat.user)
        if due is not None and due > seat.reminded_at:
            seat.reminded_at = None


def _deadline_and_timeout(session: Session, seat: Seat) -> tuple[datetime | None, datetime | None]:
    game = seat.game
    if game.days_per_move is None or seat.asked_at is None or seat.user is None:
        return None, None
    stops = _seat_stops(session, seat, seat.asked_at)  # read once for every step below
    days = game.days_per_move * DAY + seat.extra_seconds
    own = advance(seat.asked_at, days, stops(seat.asked_at))
    deadline = None if own is None else _when_player_can_act(seat.user, own, stops)
    if deadline is None:
        return None, None
    timeout = advance(deadline, seat.bank_seconds, stops(deadline))
    return deadline, None if timeout is None else _when_player_can_act(seat.user, timeout, stops)


def reminder_at(asked_at: datetime, timeout_at: datetime, user: User) -> datetime | None:
    """When a decision's reminder is due: the player's chosen hours before its
    timeout, but never in the first half of the decision's time (a 24-hour
    reminder for a 1-day move would follow the 'your turn' mail at once) nor
    in their quiet hours. None: the player wants no reminders."""
    if user.reminder_hours is None:
        return None
    before = timeout_at - timedelta(hours=user.reminder_hours)
    return out_of_quiet_hours(max(before, asked_at + (timeout_at - asked_at) / 2), user)


def _when_player_can_act(
    user: User, moment: datetime, stops: Callable[[datetime], Iterator[Stop]]
) -> datetime | None:
    """The first moment from `moment` on outside the player's quiet hours and
    the seat's stops: the end of quiet hours may fall in a weekend off (Friday
    23:00 becomes Saturday 08:00) and a weekend may end in quiet hours (Monday
    00:00), and no deadline should fall in either. None: an open stop."""
    while True:
        running = advance(moment, 0, stops(moment))
        if running is None:
            return None
        settled = out_of_quiet_hours(running, user)
        if settled == moment:
            return settled
        moment = settled


def recompute_user(session: Session, user: User) -> None:
    """After the user's vacation, zone or quiet hours changed: new deadlines
    for every decision they owe, under each game's lock (the pipeline changes
    seats under it; the lock also tells the games' pages something changed)."""
    session.flush()
    game_ids = session.scalars(
        select(Game.id)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status == GameStatus.ACTIVE)
        .distinct()
        .order_by(Game.id)
    ).all()
    for game_id in game_ids:
        lock_game(session, game_id)
    for seat in session.scalars(
        select(Seat)
        .where(Seat.user_id == user.id, Seat.asked_at.is_not(None))
        .execution_options(populate_existing=True)  # as they are now, under the locks
    ):
        recompute(session, seat)


def recompute_game(session: Session, game: Game) -> None:
    """After the game was paused or resumed or its clock changed."""
    for seat in game.seats:
        recompute(session, seat)


def out_of_quiet_hours(moment: datetime, user: User) -> datetime:
    if user.quiet_start is None or user.quiet_end is None:
        return moment
    zone = ZoneInfo(user.time_zone)
    end = quiet_until(
        moment, zone, parse_clock_time(user.quiet_start), parse_clock_time(user.quiet_end)
    )
    return moment if end is None else end


def _stop_list(session: Session, seat: Seat, since: datetime) -> Iterator[Stop]:
    """The seat's stops from `since` on, in order; with weekends off, endless."""
    return _seat_stops(session, seat, since)(since)


def _seat_stops(
    session: Session, seat: Seat, since: datetime
) -> Callable[[datetime], Iterator[Stop]]:
    """The seat's stops from any moment after `since` on (its vacations and the
    game's pauses read once), for the several walks one deadline takes."""
    rows = session.scalars(
        select(ClockStop)
        .where(
            or_(ClockStop.user_id == seat.user_id, ClockStop.game_id == seat.game_id),
            or_(ClockStop.ended_at.is_(None), ClockStop.ended_at > since),
        )
        .order_by(ClockStop.started_at)
    ).all()
    recorded = [(row.started_at, row.ended_at) for row in rows]
    zone = ZoneInfo(seat.user.time_zone) if seat.game.weekends_off and seat.user else None

    def from_moment(moment: datetime) -> Iterator[Stop]:
        if zone is None:
            return merged(recorded)
        return merged(recorded, weekends(zone, moment))

    return from_moment
