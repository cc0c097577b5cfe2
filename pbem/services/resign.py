"""Resigning: the rulesets know no resignation, so the server handles it.

The player leaves the game: the seat is marked resigned, gets no more mail and
accepts no more submissions from its player, and a bot plays it to the end so
the others can finish the game the rules define. A seat that was left ranks
last whatever the bot achieves (the engine record's `withdrawn`); pages and
mails show it as resigned.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy.orm import Session

from pbem import signals
from pbem.db import lock_game
from pbem.models import Game, GameStatus, Seat, utcnow
from pbem.services import notifications
from pbem.services.bot_thinking import ask_bots
from pbem.services.errors import Conflict


def resign(session: Session, seat: Seat) -> None:
    """Resign the seat; the caller commits."""
    game = lock_game(session, seat.game_id)
    seat = next(s for s in game.seats if s.id == seat.id)
    if game.status != GameStatus.ACTIVE:
        raise Conflict(_("the game is not going on"))
    if seat.has_left or seat.user_id is None:
        raise Conflict(_("this seat has no player to resign"))
    notifications.notify_resigned(session, game, seat)
    leave_seat(session, game, seat, "resigned")


def leave_seat(session: Session, game: Game, seat: Seat, why: str) -> None:
    """The player is out (resigned, forfeited on time, handed to a bot by an
    organiser, the account deleted): a bot of the game's stand-in level
    plays the seat on."""
    seat.resigned_at = utcnow()
    signals.announce(
        session,
        signals.seat_changed_hands,
        game_id=game.id,
        position=seat.position,
        old_user_id=seat.user_id,
        new_user_id=None,
        why=why,
    )
    stand_in(session, game, seat)


def stand_in(session: Session, game: Game, seat: Seat) -> None:
    """A bot of the game's stand-in level plays the seat from now on, its
    player keeping it (a suspended account's, until it is restored) or not
    (one who left). The caller holds the game's lock."""
    seat.bot = game.stand_in
    seat.asked_at = seat.deadline = seat.timeout_at = None
    session.flush()
    ask_bots(session, game)
