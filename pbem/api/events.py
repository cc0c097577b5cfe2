"""A game's history outside its moves through the API: for its players and
its organiser, who may have no seat (and so no seat view) to read it from."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema

from pbem.api.auth import api_user
from pbem.api.games import service_error
from pbem.api.schemas import EventSchema
from pbem.db import request_session
from pbem.models import GameEvent
from pbem.services.errors import ServiceError
from pbem.services.events import events_of
from pbem.services.games import visible_game

blp = Blueprint(
    "api_events",
    __name__,
    description="Timeouts, organiser actions and what the rules did by themselves",
)
blp.errorhandler(ServiceError)(service_error)


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.doc(operationId="listEvents")
    @blp.response(200, EventSchema(many=True))
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(404, schema=ErrorSchema, description="No such game, or not yours to see")
    def get(self, game_id: str) -> list[GameEvent]:
        """The game's events (timeouts, organiser actions, a festival
        auction's outcome), oldest first; each came after move `ply`"""
        session = request_session()
        return events_of(session, visible_game(session, game_id, api_user()))
