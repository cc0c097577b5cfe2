"""Creating, joining and finding games, and rebuilding a game's engine state."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.db import lock_game
from pbem.i18n import current_language
from pbem.i18n.games import game_title
from pbem.i18n.rules import describe_error
from pbem.models import Game, GameStatus, Season, Seat, User, utcnow
from pbem.render.colours import SEAT_COLOURS
from pbem.services.accounts import normalise_email
from pbem.services.bots import checked_level, stand_in_or_default
from pbem.services.errors import Conflict, Invalid, NotFound
from pbem.services.game_organisers import organises
from pbem.services.pipeline import after_change
from pbem.services.replay import engine_game
from pbem.services.time_control import TimeControl


@dataclass(frozen=True)
class SeatSpec:
    """Who sits at a new game's seat: a user, a bot, or nobody yet (open);
    an open seat may be kept for an invited e-mail address."""

    user: User | None = None
    bot: str | None = None
    invite: str | None = None
    # In a league game: the season entrant the seat plays for; `withdrawn`: it
    # left the season, so a bot plays the seat in its `name` and it ranks last.
    entrant: int | None = None
    withdrawn: bool = False
    name: str | None = None


# A league game's place: its season, division, round and number in the round.
LeaguePlace = tuple[Season, int, int, int]


def create_game(
    session: Session,
    creator: User | None,
    ruleset: str,
    seats: Sequence[SeatSpec],
    options: Mapping[str, Any] | None = None,
    version: int | None = None,
    seed: str | None = None,
    time_control: TimeControl | None = None,
    title: str = "",
    place: LeaguePlace | None = None,
    stand_in: str | None = None,
) -> Game:
    """A new game; it starts at once when no seat is left open. Seats' bots
    and the `stand_in` (the bot level for absent players; None: the
    installation's) are levels of engine.bots.

    The caller commits; bots that move first are then handed to a worker.
    """
    try:
        rules = engine.get_ruleset(ruleset, version)
        state = rules.new(len(seats), seed or "check", options)
    except engine.EngineError as exc:
        raise Invalid(describe_error(exc, current_language())) from None
    stand_in = stand_in_or_default(stand_in)
    for spec in seats:
        if spec.bot is not None:
            checked_level(spec.bot)
        if sum(x is not None for x in (spec.user, spec.bot, spec.invite)) > 1:
            raise Invalid(_("a seat holds a user, a bot or an invitation, not several"))
    game = Game(
        ruleset=rules.name,
        ruleset_version=rules.version,
        options=dict(state.options),
        seed=seed or secrets.token_hex(16),
        created_by_id=creator.id if creator else None,
        status=GameStatus.OPEN,
        title=title or default_title(game_title(rules.name), creator),
        stand_in=stand_in,
    )
    if place is not None:
        game.season, game.division, game.round, game.number = place
    for position, spec in enumerate(seats):
        game.seats.append(
            Seat(
                position=position,
                colour=SEAT_COLOURS[position % len(SEAT_COLOURS)],
                user_id=spec.user.id if spec.user else None,
                name=spec.name or _seat_name(position, spec.user, spec.bot),
                bot=spec.bot,
                invited_email=normalise_email(spec.invite) if spec.invite else None,
                entrant_id=spec.entrant,
                resigned_at=utcnow() if spec.withdrawn else None,
            )
        )
    if time_control is not None:
        time_control.apply_to(game)
    session.add(game)
    session.flush()
    _start_if_full(session, game)
    return game


def default_title(ruleset_title: str, creator: User | None) -> str:
    """A game's title when its creator gives none: "Taluva, Alice's game",
    in the creator's language (it is stored, and read by every player)."""
    if creator is None:
        return ruleset_title
    return _("%(game)s, %(name)s's game", game=ruleset_title, name=creator.name)


def _seat_name(position: int, user: User | None, bot: str | None) -> str:
    if user is not None:
        return user.name
    return _("Bot %(number)s", number=position + 1) if bot else ""


def _start_if_full(session: Session, game: Game) -> None:
    if game.status == GameStatus.OPEN and not any(seat.is_open for seat in game.seats):
        game.status = GameStatus.ACTIVE
        after_change(session, game, engine_game(game), already_waiting=frozenset())


def join_game(session: Session, game_public_id: str, user: User, position: int | None) -> Seat:
    """Take an open seat (when `position` is None: the one kept for the user's
    address, else the first one kept for nobody)."""
    found = visible_game(session, game_public_id, user)
    game = lock_game(session, found.id)
    if _has_seat(game, user):
        raise Conflict(_("you already have a seat in this game"))
    if game.status != GameStatus.OPEN:
        raise Conflict(_("this game has no open seat any more"))
    open_seats = [s for s in open_seats_for(game, user) if position in (None, s.position)]
    if not open_seats:
        raise Conflict(
            _("there is no open seat for you")
            if position is None
            else _("seat %(position)s is not open", position=position)
        )
    seat = min(open_seats, key=lambda s: (s.invited_email is None, s.position))
    seat.user_id, seat.name = user.id, user.name
    session.flush()
    _start_if_full(session, game)
    return seat


def _has_seat(game: Game, user: User | None) -> bool:
    return user is not None and any(seat.user_id == user.id for seat in game.seats)


def open_seats_for(game: Game, user: User | None) -> list[Seat]:
    """The open seats the user may take: kept for nobody, or for their address."""
    if user is None or game.status != GameStatus.OPEN:
        return []
    return [s for s in game.seats if s.is_open and s.invited_email in (None, user.email)]


def may_see(game: Game, user: User | None) -> bool:
    """Players and the game's creator (its organiser) see their game; a game
    waiting for players is shown to whoever may take a seat too: an
    invitation is nobody else's business."""
    if user is None:
        return False
    if _has_seat(game, user) or organises(game, user):
        return True
    return game.status == GameStatus.OPEN and bool(open_seats_for(game, user))


def visible_game(session: Session, game_public_id: str, user: User | None) -> Game:
    """A game its players and its creator may see, and (while it waits for
    players) whoever may join it; for everybody else it does not exist."""
    game = find_game(session, game_public_id)
    if not may_see(game, user):
        raise NotFound(_("no such game"))
    return game


def find_game(session: Session, game_public_id: str) -> Game:
    """The game with this id, whoever asks: for what anyone with its link may see."""
    game = session.scalar(select(Game).where(Game.public_id == game_public_id))
    if game is None:
        raise NotFound(_("no such game"))
    return game


def own_seat(session: Session, game_public_id: str, position: int, user: User | None) -> Seat:
    """The user's own seat; any other seat is 'not found', like an unknown game."""
    game = visible_game(session, game_public_id, user)
    for seat in game.seats:
        if seat.position == position and user is not None and seat.user_id == user.id:
            return seat
    raise NotFound(_("no such seat"))


def seat_of(session: Session, game_public_id: str, user: User | None) -> Seat:
    """The user's seat in the game; for anybody else the game does not exist."""
    game = visible_game(session, game_public_id, user)
    for seat in game.seats:
        if user is not None and seat.user_id == user.id:
            return seat
    raise NotFound(_("no such game"))
