"""Chat on the game page: the players' messages to each other, kept with the
game and mailed to the other players (pbem.services.chat), and a
moderator's removal of a line."""

from __future__ import annotations

from flask import current_app, redirect, request, url_for
from flask.typing import ResponseReturnValue

from pbem.models import Channel
from pbem.numbers import ID_CONVERTER
from pbem.services import chat
from pbem.services.errors import Invalid
from pbem.services.games import find_game, seat_of
from pbem.web.common import db, me, page_blueprint, signed_in
from pbem.web.play import render_game_page

bp = page_blueprint("chat")


@bp.route("/games/<game_id>/chat", methods=["POST"])
@signed_in
def post(game_id: str) -> ResponseReturnValue:
    seat = seat_of(db(), game_id, me())
    text = request.form.get("text", "")
    try:
        sent = chat.post(db(), seat, text, Channel.WEB, current_app.config["PBEM_CHAT_MAX_CHARS"])
    except Invalid as exc:
        db().rollback()
        return render_game_page(seat, None, chat_error=str(exc), chat_text=text, status=422)
    db().commit()
    return redirect(url_for("play.game_page", game_id=game_id, chat=sent.readers, _anchor="chat"))


@bp.route(f"/games/<game_id>/chat/<{ID_CONVERTER}:message_id>/remove", methods=["POST"])
@signed_in
def remove(game_id: str, message_id: int) -> ResponseReturnValue:
    """A moderator's removal: the line stays, shown as removed."""
    user = me()
    assert user is not None
    chat.remove(db(), find_game(db(), game_id), message_id, user)
    db().commit()
    return redirect(url_for("play.game_page", game_id=game_id, _anchor="chat"))
