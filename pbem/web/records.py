"""A finished game's record as a file to save, linked from the game page and
the watch page (pbem.services.records says who may have it, and when)."""

from __future__ import annotations

from flask import Response, url_for
from flask.typing import ResponseReturnValue

from pbem.models import Game
from pbem.services.errors import NotFound
from pbem.services.records import finished_record, record_filename, record_refusal
from pbem.web.common import db, me, page_blueprint, sign_in_first

bp = page_blueprint("records")


@bp.route("/games/<game_id>/record.json")
def record_file(game_id: str) -> ResponseReturnValue:
    """The very file `python -m engine` writes, so `python -m engine replay` takes it.
    Refused as to a stranger while nobody is signed in, it asks to sign in
    first: a player may follow the game-over mail's link from any browser."""
    try:
        game, record = finished_record(db(), game_id, me())
    except NotFound:
        if me() is None:
            return sign_in_first()
        raise
    response = Response(record.dumps(), mimetype="application/json")
    response.headers.set("Content-Disposition", "attachment", filename=record_filename(game))
    return response


def record_url(game: Game) -> str | None:
    """The download link the game page and the watch page show, once the
    reader may have the record."""
    if record_refusal(game, me()) is not None:
        return None
    return url_for("records.record_file", game_id=game.public_id)
