"""A finished game's record through the API (pbem.services.records says who
may have it, and when)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema

from pbem.api.auth import api_user
from pbem.api.games import service_error
from pbem.api.schemas import RecordSchema
from pbem.db import request_session
from pbem.services.errors import ServiceError
from pbem.services.records import finished_record

blp = Blueprint("api_records", __name__, description="Finished games' records")
blp.errorhandler(ServiceError)(service_error)


@blp.route("/<game_id>/record")
class GameRecord(MethodView):
    @blp.doc(operationId="getGameRecord")
    @blp.response(200, RecordSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(
        404,
        schema=ErrorSchema,
        description="No such game, or not yours to see (going on, or with secret moves)",
    )
    @blp.alt_response(
        409,
        schema=ErrorSchema,
        description="The game is not over yet (the record holds the seed), or was"
        " abandoned before it started",
    )
    def get(self, game_id: str) -> dict[str, Any]:
        """The game record, seed included, once the game is over

        An abandoned game's record goes up to where it stopped. Save it as a
        file and check every draw with `python -m engine replay FILE`. Its
        players and organiser may have it; so may anyone with the game's id,
        like the watch page, when that page shows every move (no choice the
        rules keep secret from watchers)."""
        _game, record = finished_record(request_session(), game_id, api_user())
        return record.to_json()
