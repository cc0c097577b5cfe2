"""The clock in a game mail: the game's time control, and for a recipient who
owes a decision, when it times out in their own zone and what bank is left.
A game without a clock gets nothing."""

from __future__ import annotations

from flask_babel import gettext as _

from pbem.i18n.times import duration, local_time
from pbem.models import GameStatus, Seat
from pbem.services.time_control import TimeControl


def clock_text(seat: Seat, zone: str, deadline: bool = True) -> str:
    """Lines for the mail to `seat`'s player; `deadline` False leaves out the
    seat's own deadline (a reminder says it already)."""
    control = TimeControl.of(seat.game)
    if control is None:
        return ""
    lines = [_("Time control: %(control)s.", control=control.describe())]
    if deadline and _owes(seat):
        lines += _deadline_lines(seat, control, zone)
    return "\n".join(lines)


def _owes(seat: Seat) -> bool:
    """Owes a decision not yet timed out (a timeout that waits for the
    organiser leaves the seat owing, with its deadline past)."""
    game = seat.game
    return (
        game.status == GameStatus.ACTIVE
        and seat.position in game.to_act
        and seat.asked_at is not None
        and seat.timed_out_at is None
        and seat.bot is None
    )


def _deadline_lines(seat: Seat, control: TimeControl, zone: str) -> list[str]:
    if seat.timeout_at is None:
        return [_("Your clock is stopped for now (a vacation or a paused game).")]
    lines = [_("Your deadline: %(time)s.", time=local_time(seat.timeout_at, zone))]
    if control.bank_days:
        bank = duration(seat.bank_seconds)
        if seat.deadline is not None and seat.deadline < seat.timeout_at:
            since = local_time(seat.deadline, zone)
            lines.append(_("Bank left: %(bank)s, drawn on from %(time)s.", bank=bank, time=since))
        else:
            lines.append(_("Bank left: %(bank)s.", bank=bank))
    return lines
