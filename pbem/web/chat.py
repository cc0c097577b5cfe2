"""Chat on the game page: the players' messages to each other, kept with the
game and mailed to the other players (pbem.services.chat)."""

from __future__ import annotations

from flask import current_app, redirect, request, url_for

from pbem.services import chat
from pbem.services.errors import Invalid
from pbem.services.games import seat_of
from pbem.web.common import db, me, page_blueprint, signed_in
from pbem.web.play import render_game_page

bp = page_blueprint("chat")


@bp.route("/games/<game_id>/chat", methods=["POST"])
@signed_in
def post(game_id: str):  # type: ignore[no-untyped-def]
    seat = seat_of(db(), game_id, me())
    text = request.form.get("text", "")
    try:
        sent = chat.post(db(), seat, text, "web", current_app.config["PBEM_CHAT_MAX_CHARS"])
    except Invalid as exc:
        db().rollback()
        return render_game_page(seat, None, chat_error=str(exc), chat_text=text, status=422)
    db().commit()
    return redirect(url_for("play.game_page", game_id=game_id, chat=sent.readers, _anchor="chat"))
