"""The organiser's actions through the API: only the game's creator may use
them; each answers with the event it wrote into the game's history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema

from pbem.api.auth import api_user
from pbem.api.games import game_json, service_error
from pbem.api.pages import View
from pbem.api.schemas import (
    ExtendSchema,
    OrganisedSchema,
    ReplaceSchema,
    SeatChoiceSchema,
    StandInSchema,
)
from pbem.db import request_session
from pbem.i18n import invitee_language
from pbem.services import organiser
from pbem.services.errors import ServiceError
from pbem.services.links import take_over_url

blp = Blueprint(
    "api_organiser",
    __name__,
    description="The organiser's actions: only the game's creator may use them",
)
blp.errorhandler(ServiceError)(service_error)
URL = "/<game_id>/organiser"


def _answer(game_id: str, done: organiser.Done) -> dict[str, Any]:
    """Commit and show the event and the game."""
    session = request_session()
    session.commit()
    user = api_user()
    game = organiser.organising(session, game_id, user)
    return {"event": done.event, "game": game_json(game, user)}


def _documented(
    operation_id: str, conflict: str, invalid: str | None = None
) -> Callable[[View], View]:
    """The answers every organiser action documents."""

    answers = {
        401: "No valid API token",
        403: "You are not the game's organiser",
        404: "No such game or seat",
        409: conflict,
    }
    if invalid:
        answers[422] = invalid

    def wrap(method: View) -> View:
        method = blp.doc(operationId=operation_id)(blp.response(200, OrganisedSchema)(method))
        for code, description in answers.items():
            method = blp.alt_response(code, schema=ErrorSchema, description=description)(method)
        return method

    return wrap


@blp.route(f"{URL}/extend")
class Extend(MethodView):
    @blp.arguments(ExtendSchema)
    @_documented("extendDeadline", "The game is not going on, or the seat owes no move", "Bad days")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Give a seat more days for the move it owes now"""
        done = organiser.extend(
            request_session(), api_user(), game_id, body["position"], body["days"]
        )
        return _answer(game_id, done)


@blp.route(f"{URL}/pause")
class Pause(MethodView):
    @_documented("pauseGame", "The game is not going on, or is paused already")
    def post(self, game_id: str) -> dict[str, Any]:
        """Stop every clock of the game until it resumes"""
        return _answer(game_id, organiser.pause(request_session(), api_user(), game_id))


@blp.route(f"{URL}/resume")
class Resume(MethodView):
    @_documented("resumeGame", "The game is not going on, or not paused")
    def post(self, game_id: str) -> dict[str, Any]:
        """Let the clocks run again; deadlines move on by the pause's length"""
        return _answer(game_id, organiser.resume(request_session(), api_user(), game_id))


@blp.route(f"{URL}/hand-to-bot")
class HandToBot(MethodView):
    @blp.arguments(SeatChoiceSchema)
    @_documented("handSeatToBot", "The game is not going on, or the seat has no player")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Take the seat from its player for the rest of the game; a bot plays it"""
        done = organiser.hand_to_bot(request_session(), api_user(), game_id, body["position"])
        return _answer(game_id, done)


@blp.route(f"{URL}/stand-in")
class StandIn(MethodView):
    @blp.arguments(StandInSchema)
    @_documented("chooseStandIn", "The game is over already", "Unknown bot level")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Choose the level of the bots that stand in for absent players (timeouts
        under on_timeout bot, resignations, seats handed to a bot)"""
        done = organiser.choose_stand_in(request_session(), api_user(), game_id, body["level"])
        return _answer(game_id, done)


@blp.route(f"{URL}/replace")
class Replace(MethodView):
    @blp.arguments(ReplaceSchema)
    @_documented(
        "replacePlayer",
        "The game is not going on, the seat has no player, or the address plays here already",
        "Not an e-mail address",
    )
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Give the seat to the person at an address; they are invited by mail"""
        done = organiser.replace(
            request_session(),
            api_user(),
            game_id,
            body["position"],
            body["email"],
            take_over_url,
            invitee_language(body.get("language")),
        )
        return _answer(game_id, done)


@blp.route(f"{URL}/abandon")
class Abandon(MethodView):
    @_documented("abandonGame", "The game is over already")
    def post(self, game_id: str) -> dict[str, Any]:
        """End the game without a result, under way or still waiting for players"""
        return _answer(game_id, organiser.abandon(request_session(), api_user(), game_id))
