"""What a batch of mails shows of its games, worked out once per batch: the
game's row (held, since the session's identity map would let it go between
two reads of it), the engine game per game, the rules' events per game, a
seat's picture per (game, seat), the board's PNGs per (game, ply, viewer,
language). A batch's mails
show each game as it stands when the batch is sent, as a mail sent on its
own showed it when it was sent; the next batch starts afresh, since the game
may have moved on by then."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from sqlalchemy.orm import Session, object_session

import engine
from pbem.i18n import current_language
from pbem.mail.game_text import SeatPicture, seat_picture
from pbem.models import Game, GameEvent
from pbem.services.events import RULES, events_by_ply, events_of
from pbem.services.names import read_names
from pbem.services.pictures import mail_board
from pbem.services.replay import engine_game

T = TypeVar("T")


def _once(made: dict[Hashable, T], key: Hashable, make: Callable[[], T]) -> T:
    if key not in made:
        made[key] = make()
    return made[key]


class GameViews:
    def __init__(self) -> None:
        self._games: dict[Hashable, Game] = {}
        self._played: dict[Hashable, engine.Game] = {}
        self._told: dict[Hashable, dict[int, list[GameEvent]]] = {}
        self._pictures: dict[Hashable, SeatPicture] = {}
        self._boards: dict[Hashable, tuple[bytes, bytes]] = {}

    def game(self, session: Session, game_id: int) -> Game:
        return _once(self._games, game_id, lambda: session.get_one(Game, game_id))

    def played(self, game: Game) -> engine.Game:
        return _once(self._played, game.id, lambda: engine_game(game))

    def told(self, game: Game) -> dict[int, list[GameEvent]]:
        """What the rules did by themselves (RULES events), by ply."""
        session = object_session(game)
        assert session is not None  # read through game()
        return _once(
            self._told,
            game.id,
            lambda: events_by_ply(e for e in events_of(session, game) if e.kind == RULES),
        )

    def picture(self, game: Game, position: int) -> SeatPicture:
        """The seat's picture in the language being written in (its reader's)."""
        language = current_language()
        return _once(
            self._pictures,
            (game.id, position, language),
            lambda: seat_picture(
                self.played(game), position, language, self.told(game), read_names(game)
            ),
        )

    def board(self, game: Game, picture: SeatPicture) -> tuple[bytes, bytes]:
        """The seat's board and side panel as PNGs, in the language being written in."""
        language = current_language()
        return _once(
            self._boards,
            (game.id, picture.ply, picture.position, language),
            lambda: mail_board(game, picture.view, language),
        )
