"""The spectator view: anyone with the game's link may watch, and sees what a
spectator's view holds (no hand, no hidden tile), with the history to step through."""

from __future__ import annotations

from flask import render_template, request

from pbem.i18n import current_language
from pbem.i18n.boards import board_text
from pbem.i18n.games import game_title
from pbem.models import Game, GameStatus
from pbem.services import pictures
from pbem.services.events import events_by_ply, events_of
from pbem.services.games import find_game
from pbem.services.names import as_read
from pbem.web.common import db, page_blueprint
from pbem.web.positions import ply_argument, position_at

bp = page_blueprint("spectate")


def public_game(game_id: str) -> Game:
    return find_game(db(), game_id)


@bp.route("/games/<game_id>/watch")
def watch(game_id: str) -> str:
    game = public_game(game_id)
    title = game_title(game.ruleset)
    if game.status == GameStatus.OPEN:
        return render_template("watch.html", game=game, title=title, position=None)
    position = position_at(game, ply_argument(request.args.get("ply")))
    view = as_read(game, position.played.view(None))
    board_svg, board_panel = pictures.inline_board(game, view, current_language())
    return render_template(
        "watch.html",
        game=game,
        title=title,
        position=position,
        view=view,
        board_svg=board_svg,
        board_panel=board_panel,
        picture=board_text(position.played.state, None, current_language()),
        waiting=position.is_now and game.status == GameStatus.ACTIVE,
        events=events_by_ply(events_of(db(), game)),
    )
