"""A finished game's record: the engine's file (ruleset, seats, seed, options,
moves) that `python -m engine replay` checks, for the pages and the API.

The seed decides every draw still to come, so the record is given only once
nothing more will be drawn: when the game is over, or was abandoned (then up
to where it stopped). Its players and organiser may have it then. So may
anyone with the game's link, like the watch page, when that page shows every
move as the record has it: the record then tells nothing the page does not
(the page shows the seed too once the game is over). A choice the rules keep
secret from watchers even then (or still, in an abandoned game) keeps the
record among those who played. While the game goes on, its players and
organiser learn it is not over; for everybody else the game does not exist,
as everywhere outside the watch page."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, GameStatus, User
from pbem.services.errors import Conflict, NotFound, ServiceError
from pbem.services.games import find_game, may_see
from pbem.services.replay import engine_game

NOT_OVER = lazy_gettext(
    "the game is not over: its record, which holds the seed that decides every draw, "
    "is given once the game has ended"
)
NEVER_STARTED = lazy_gettext(
    "the game was abandoned before it started: there are no moves to replay"
)


def finished_record(
    session: Session, game_public_id: str, user: User | None
) -> tuple[Game, engine.Record]:
    """The game and its record, or the refusal record_refusal gives."""
    game = find_game(session, game_public_id)
    refusal = record_refusal(game, user)
    if refusal is not None:
        raise refusal
    return game, engine_game(game).to_record()


def record_refusal(game: Game, user: User | None) -> ServiceError | None:
    """Why the user (None: nobody signed in) may not have the game's record
    now: Conflict for what time cannot change for them, NotFound for a game
    that is none of their business. None when they may."""
    if game.status != GameStatus.FINISHED:
        return Conflict(str(NOT_OVER)) if may_see(game, user) else NotFound(_("no such game"))
    if any(seat.is_open for seat in game.seats):
        return Conflict(str(NEVER_STARTED))
    if not may_see(game, user) and not _watchers_saw_every_move(game):
        return NotFound(_("no such game"))
    return None


def _watchers_saw_every_move(game: Game) -> bool:
    played = engine_game(game)
    shown = [entry["move"] for entry in played.view(None)["history"]]
    return shown == [entry.text for entry in played.log]


def record_filename(game: Game) -> str:
    """What the download is saved as: the game's name and its id, e.g. taluva-<id>.json."""
    return f"{game.ruleset}-{game.public_id}.json"
