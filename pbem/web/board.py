"""Board pictures: a seat's view as PNG (only for that seat's player), or the
spectator's view (for anyone with the game's link), at any point of the history.

Each (game, ply, viewer) is drawn once (pbem.services.pictures); its ETag
names that key, so a browser that has it gets a 304 before anything is read."""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from pbem.models import Game, GameStatus
from pbem.services import pictures
from pbem.services.errors import NotFound
from pbem.services.links import picture_key_allows
from pbem.web.common import db, me, page_blueprint
from pbem.web.positions import ply_argument, position_at, shown_ply
from pbem.web.spectate import public_game

bp = page_blueprint("board")

A_YEAR = 365 * 86400
SIGN_IN_FIRST = -1  # not a seat: the reader must sign in to see one


@bp.route("/games/<game_id>/board.png")
def board_png(game_id: str) -> ResponseReturnValue:
    game = public_game(game_id)
    asked = ply_argument(request.args.get("ply"))
    viewer = _viewer(game, request.args.get("seat"), asked)
    if viewer == SIGN_IN_FIRST:
        return redirect(url_for("auth.sign_in", next=request.full_path))
    if game.status == GameStatus.OPEN:
        raise NotFound(_("the game has no board yet"))
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


def _viewer(game: Game, raw_seat: str | None, ply: int | None) -> int | None:
    """None (spectator) without ?seat=; a seat only for the player sitting
    there, or with the mail's signed key for that seat and move. A reader who
    is not signed in and has no such key is to sign in (SIGN_IN_FIRST)."""
    if raw_seat in (None, ""):
        return None
    user, key = me(), request.args.get("key", "")
    for seat in game.seats:
        if str(seat.position) != raw_seat:
            continue
        if user is not None and seat.user_id == user.id:
            return seat.position
        if key and picture_key_allows(key, game.public_id, seat.position, ply):
            return seat.position
    if user is None:
        return SIGN_IN_FIRST
    raise NotFound(_("no such game"))
