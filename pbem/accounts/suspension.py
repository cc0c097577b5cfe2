"""Suspending an account (an administrator's `pbem user suspend`): no channel
lets it in (pages, sessions, API tokens, mail) and the stand-in bot plays its
seats until it is restored; the seats stay the player's."""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.accounts.browsers import end_every_browser_session
from pbem.db import lock_game, lock_user
from pbem.models import Game, GameStatus, Seat, User, utcnow
from pbem.services import notifications
from pbem.services.deadlines import follow_to_act
from pbem.services.errors import Conflict
from pbem.services.resign import stand_in


def suspend(session: Session, user: User) -> None:
    """The caller commits. The user's lock first, then each game's."""
    user = lock_user(session, user.id)
    if user.deleted_at is not None:
        raise Conflict(_("this account is deleted"))
    if user.suspended_at is not None:
        raise Conflict(_("this account is suspended already"))
    user.suspended_at = utcnow()
    # Not only refused while it lasts: the sign-ins made before do not come
    # back with a restore.
    end_every_browser_session(session, user.id)
    for seat in _seats_in_play(session, user):
        game = lock_game(session, seat.game_id)
        seat = next(s for s in game.seats if s.id == seat.id)
        if game.status == GameStatus.ACTIVE and seat.bot is None and not seat.has_left:
            stand_in(session, game, seat)


def restore(session: Session, user: User) -> None:
    """The player is back: their seats are theirs to play again, with a fresh
    clock and a mail for each turn they owe now."""
    user = lock_user(session, user.id)
    if user.suspended_at is None:
        raise Conflict(_("this account is not suspended"))
    user.suspended_at = None
    for seat in _seats_in_play(session, user):
        game = lock_game(session, seat.game_id)
        seat = next(s for s in game.seats if s.id == seat.id)
        if game.status != GameStatus.ACTIVE or seat.bot is None or seat.has_left:
            continue
        seat.bot = None
        if seat.position in game.to_act:
            follow_to_act(session, game, {seat.position})
            notifications.notify_turn(session, game, [seat.position], ply=len(game.moves))


def _seats_in_play(session: Session, user: User) -> list[Seat]:
    """The user's seats in games under way that they have not left."""
    return list(
        session.scalars(
            select(Seat)
            .join(Game)
            .where(
                Seat.user_id == user.id,
                Game.status == GameStatus.ACTIVE,
                Seat.resigned_at.is_(None),
            )
            .order_by(Seat.game_id)
        )
    )
