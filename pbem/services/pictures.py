"""A stored game's board as one viewer sees it at one ply, in the game's own
seat colours: the one picture pages and mails show, so a seat looks the same
everywhere. Each (game, ply, viewer, language) is drawn once and kept
(pbem.services.picture_store) for the full-size link and the API. A mail
shows the same picture cut in two, drawn for it and not kept: a "your turn"
mail goes to one seat at one ply, and few of its readers open the full-size
picture, so keeping it would cost every mail an encoding of the whole and a
look-up of its key for a picture seldom asked for again.

The language is the reader's: passed by the caller, or else the one being
written in now (the page's in a request, the mail's inside `in_language`)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.i18n import current_language, in_language, mail_language
from pbem.models import Game, Move, Seat
from pbem.render import (
    can_draw,
    render_board_and_panel,
    render_panel_html,
    render_png,
    render_svg,
    space_centres,
)
from pbem.render.version import render_version
from pbem.services.names import as_read
from pbem.services.picture_store import PictureKey, store_for

log = logging.getLogger(__name__)

View = Mapping[str, Any]


def picture_key(
    session: Session, game: Game, ply: int, viewer: int | None, language: str | None = None
) -> PictureKey:
    """The viewer is part of the key, so a seat's picture, which shows what
    only that seat may see, is never found for another seat or a spectator.
    The digest covers all else a picture is drawn from: the language of its
    words (a French picture is never served to a Czech reader), the moves up
    to the ply (a picture drawn in a transaction that was rolled back is never
    found), the seat rows (names, colours, who resigned), the render code and
    engine."""
    seats = [
        [seat.position, seat.colour, seat.name, seat.resigned_at and seat.resigned_at.isoformat()]
        for seat in game.seats
    ]
    moves = session.execute(
        select(Seat.position, Move.text)
        .join(Seat, Seat.id == Move.seat_id)
        .where(Move.game_id == game.id, Move.ply <= ply)
        .order_by(Move.ply)
    ).all()
    words = reader_language(language)
    drawn_from = json.dumps([render_version(), words, game.seed, seats, [list(m) for m in moves]])
    return PictureKey(
        game.public_id,
        ply,
        "spectator" if viewer is None else f"seat{viewer}",
        hashlib.sha256(drawn_from.encode()).hexdigest()[:32],
        words,
    )


def reader_language(language: str | None) -> str:
    """The language a picture is drawn in: the one given, else the current one."""
    return mail_language(language or current_language())


def kept_png(session: Session, game: Game, key: PictureKey, view: Callable[[], View]) -> bytes:
    """The picture kept under `key`, drawn from `view()` in the key's language
    and kept if there is none."""
    store = store_for(session)
    png = store.get(key)
    if png is None:
        png = draw(game, view(), key.language)
        log.debug("drew board picture %s", key.etag)
        store.put(key, png)
    return png


def draw(game: Game, view: View, language: str | None = None) -> bytes:
    """A picture drawn and not kept: for views no ply of the game has (a preview)."""
    language = reader_language(language)
    return render_png(_named(game, view, language), _colours(game), language)


def mail_board(game: Game, view: View, language: str | None = None) -> tuple[bytes, bytes]:
    """The picture of `view` cut into its board and its side panel, as a mail shows it."""
    language = reader_language(language)
    return render_board_and_panel(_named(game, view, language), _colours(game), language)


def inline_board(game: Game, view: View, language: str) -> tuple[Markup, Markup]:
    """A page's board as SVG and its side panel as HTML, in the game's seat
    colours and the reader's language; drawn from `view` alone, like the PNG,
    and cheap enough not to keep. Empty for a game without a picture."""
    if not can_draw(view):
        return Markup(), Markup()
    colours, language = _colours(game), reader_language(language)
    named = _named(game, view, language)
    return render_svg(named, colours, language), render_panel_html(named, colours, language)


def board_spaces(view: View) -> list[str]:
    """The names of the spaces the board of `view` draws (none for a game
    without a picture)."""
    return list(board_centres(view))


def board_centres(view: View) -> dict[str, tuple[float, float]]:
    """Where the board of `view` draws each space, by name: how near two
    spaces are (none for a game without a picture)."""
    return space_centres(view) if can_draw(view) else {}


def _named(game: Game, view: View, language: str) -> View:
    """The view with its seats named as a reader of `language` sees them (a
    deleted account's seat: a former player in their words)."""
    with in_language(language):
        return as_read(game, view)


def _colours(game: Game) -> list[str]:
    return [seat.colour for seat in game.seats]


def prune_pictures(session: Session, before: datetime) -> int:
    """Forget pictures kept before `before`; the caller commits."""
    return store_for(session).prune(before)
