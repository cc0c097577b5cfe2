"""Board pictures: a seat's view as PNG (only for that seat's player), or the
spectator's view (for anyone with the game's link), at any point of the history."""

from __future__ import annotations

from flask import Response, request

from pbem.models import GameStatus
from pbem.services import pictures
from pbem.services.errors import NotFound
from pbem.web.common import me, page_blueprint
from pbem.web.positions import ply_argument, position_at
from pbem.web.spectate import public_game

bp = page_blueprint("board")


@bp.route("/games/<game_id>/board.png")
def board_png(game_id: str) -> Response:
    game = public_game(game_id)
    viewer = _viewer(game, request.args.get("seat"))
    if game.status == GameStatus.OPEN:
        raise NotFound("the game has no board yet")
    ply = ply_argument(request.args.get("ply"))
    position = position_at(game, ply)
    response = Response(
        pictures.board_png(game, position.played.view(viewer)), mimetype="image/png"
    )
    # A given ply never changes, so its picture may be kept; "now" may not.
    response.cache_control.private = True
    response.cache_control.max_age = 86400 if ply is not None else 0
    return response


def _viewer(game, raw_seat: str | None) -> int | None:  # type: ignore[no-untyped-def]
    """None (spectator) without ?seat=; a seat only for the player sitting there."""
    if raw_seat in (None, ""):
        return None
    user = me()
    for seat in game.seats:
        if str(seat.position) == raw_seat and user is not None and seat.user_id == user.id:
            return seat.position
    raise NotFound("no such game")
