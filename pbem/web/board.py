"""Board pictures: a seat's view as PNG (only for that seat's player), or the
spectator's view (for anyone with the game's link), at any point of the history.

Each (game, ply, viewer) is drawn once (pbem.services.pictures); its ETag
names that key, so a browser that has it gets a 304 before anything is read."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_babel import gettext as _

from pbem.models import GameStatus
from pbem.services import pictures
from pbem.services.errors import NotFound
from pbem.web.common import db, me, page_blueprint
from pbem.web.positions import ply_argument, position_at, shown_ply
from pbem.web.spectate import public_game

bp = page_blueprint("board")

A_YEAR = 365 * 86400


@bp.route("/games/<game_id>/board.png")
def board_png(game_id: str) -> Response:
    game = public_game(game_id)
    viewer = _viewer(game, request.args.get("seat"))
    if game.status == GameStatus.OPEN:
        raise NotFound(_("the game has no board yet"))
    asked = ply_argument(request.args.get("ply"))
    ply = shown_ply(game, asked)
    key = pictures.picture_key(db(), game, ply, viewer)
    response = Response(mimetype="image/png")
    response.set_etag(key.etag)
    # A given ply's picture never changes; "now" is asked again each time (a 304 if unchanged).
    response.cache_control.private = True
    if asked is None:
        response.cache_control.no_cache = True
    else:
        response.cache_control.max_age = A_YEAR
        response.cache_control.immutable = True
    if request.if_none_match.contains(key.etag):
        response.status_code = 304
        return response

    def view() -> dict[str, Any]:  # replayed only when the picture must be drawn
        return position_at(game, ply).played.view(viewer)

    response.set_data(pictures.kept_png(db(), game, key, view))
    return response


def _viewer(game, raw_seat: str | None) -> int | None:  # type: ignore[no-untyped-def]
    """None (spectator) without ?seat=; a seat only for the player sitting there."""
    if raw_seat in (None, ""):
        return None
    user = me()
    for seat in game.seats:
        if str(seat.position) == raw_seat and user is not None and seat.user_id == user.id:
            return seat.position
    raise NotFound(_("no such game"))
