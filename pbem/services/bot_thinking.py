"""Bots think on a queue of their own, outside any lock, and send their moves
through the one door like anyone.

Whoever changes a game (the worker judging a turn, a resignation, an
organiser, a timeout) asks, under the game's lock, for the bots that must
act now: the seat's `bot_asked_at` is set and, once that commits, a task on
the bots' queue (PBEM_BOT_QUEUE, pbem.dispatch) thinks for the seat. A seat
has one think asked at a time. The think reads the game, lets go of the
database while the bot searches, then offers the moves to
pbem.services.turns.accept_turn at the position it thought about: if the
game moved on meanwhile (or the seat changed hands, or a turn of it waits)
the stale moves are dropped and, if the seat still needs a bot, a new think
is asked for the game as it is now. A think whose message was lost is asked
again by the beat's sweep (pbem.dispatch.requeue_stale).

Two kinds of think: a bot's own seat plays its whole turn at the seat's
level; a player's decision that timed out under on_timeout "bot" is made by
the game's stand-in level, the player keeping the seat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from pbem import signals
from pbem.db import lock_game
from pbem.models import Channel, Game, GameStatus, OnTimeout, Seat, utcnow
from pbem.services import notifications
from pbem.services.bots import bot_turn
from pbem.services.replay import engine_game
from pbem.services.submissions import pending_submission
from pbem.services.turns import TurnRefused, accept_turn

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Think:
    """What a bot is to do for a seat: play at `level` by `channel`, BOT
    (its own seat, the whole turn) or CLOCK (one timed-out decision)."""

    level: str
    channel: Channel

    @property
    def stand_in(self) -> bool:
        """A stand-in for one timed-out decision of a player who keeps the seat."""
        return self.channel == Channel.CLOCK


def think_needed(game: Game, seat: Seat) -> Think | None:
    """The think the seat needs now, if any (pending turns aside)."""
    if game.status != GameStatus.ACTIVE or seat.position not in game.to_act:
        return None
    if seat.bot is not None:
        return Think(seat.bot, Channel.BOT)
    if seat.timed_out and game.on_timeout == OnTimeout.BOT:
        return Think(game.stand_in, Channel.CLOCK)
    return None


def ask_bots(session: Session, game: Game) -> None:
    """Under the game's lock: ask a think for every seat that needs one and
    has none asked and no turn waiting."""
    for seat in game.seats:
        if (
            seat.bot_asked_at is None
            and think_needed(game, seat) is not None
            and pending_submission(session, seat) is None
        ):
            seat.bot_asked_at = utcnow()
            signals.announce(session, signals.bot_asked, game_id=game.id, seat_id=seat.id)


def think(session: Session, seat_id: int) -> str:
    """The bots' task: think for the seat and offer its moves; commits.
    Says what came of it: "sent", "dropped" or "nothing to do"."""
    seat = session.get(Seat, seat_id)
    if seat is None:
        return "nothing to do"  # the game was deleted
    needed = think_needed(seat.game, seat)
    if needed is None:
        _settle(session, seat.game_id, seat_id)
        return "nothing to do"
    played, position = engine_game(seat.game), seat.position
    seen = len(played.log)
    session.rollback()  # no transaction (nor SQLite read lock) held while the bot searches
    moves = bot_turn(played, position, needed.level, stand_in=needed.stand_in)
    seat = session.get_one(Seat, seat_id)
    try:
        submission = accept_turn(session, seat, None, "\n".join(moves), needed.channel, seen)
    except TurnRefused as refused:
        log.info("bot's moves for seat %s dropped: %s", seat_id, refused.why)
        _settle(session, seat.game_id, seat_id)
        return "dropped"
    seat = submission.seat  # as the game's lock read it
    seat.bot_asked_at = None
    if needed.channel == Channel.CLOCK:
        notifications.notify_timeout(session, seat.game, seat, OnTimeout.BOT, moves)
    session.commit()
    return "sent"


def _settle(session: Session, game_id: int, seat_id: int) -> None:
    """Under the lock: the seat's think is over; ask again if the game as it
    is now still needs one."""
    game = lock_game(session, game_id)
    seat = next(s for s in game.seats if s.id == seat_id)
    seat.bot_asked_at = None
    ask_bots(session, game)
    session.commit()
