"""The clock line of each player in the seat lists (templates/_clock.html):
times in the signed-in reader's zone (UTC, named, for anonymous watchers);
private things only for players of the game."""

from __future__ import annotations

from datetime import datetime

from flask import Flask

from pbem.i18n.times import local_time
from pbem.models import Game, Seat, User, utcnow
from pbem.services.seat_times import SeatTimes, seat_times
from pbem.web.common import db
from pbem.web.common import me as signed_in_user


def seat_clock(game: Game, seat: Seat, me: User | None = None) -> SeatTimes | None:
    """For the templates: `me` is the reader a page is made for (the seat
    list's argument); pages for anyone (watching) leave it out."""
    reader = signed_in_user()
    player = me if me is not None and any(s.user_id == me.id for s in game.seats) else None
    return seat_times(
        db(),
        game,
        seat,
        zone=reader.time_zone if reader else "UTC",
        player_id=player.id if player else None,
        now=utcnow(),
        name_zone=reader is None,
    )


def reader_time(moment: datetime) -> str:
    """Any stored time as the signed-in reader reads it (UTC, named, for others)."""
    reader = signed_in_user()
    if reader is None:
        return local_time(moment, "UTC", name_zone=True)
    return local_time(moment, reader.time_zone)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["seat_clock"] = seat_clock
    app.jinja_env.filters["reader_time"] = reader_time
