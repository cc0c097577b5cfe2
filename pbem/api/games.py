"""Games, seats and moves through the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from flask import current_app, url_for
from flask.views import MethodView
from flask_babel import gettext as _
from flask_smorest.error_handler import ErrorSchema
from flask_smorest.pagination import PaginationParameters
from webargs.flaskparser import abort
from werkzeug.http import HTTP_STATUS_CODES

from pbem.api.auth import api_user
from pbem.api.pages import Blueprint, View
from pbem.api.schemas import (
    ChatMessageSchema,
    ChatPostSchema,
    ChatSentSchema,
    GameCreateSchema,
    GameSchema,
    JoinSchema,
    LegalMovesSchema,
    SubmissionSchema,
    SubmitSchema,
    ViewSchema,
)
from pbem.db import request_session
from pbem.i18n import current_language, page_language
from pbem.i18n.boards import board_text
from pbem.i18n.rules import refusal_of
from pbem.leagues.seasons import shown_title
from pbem.models import Channel, ChatMessage, Game, Seat, Submission, User
from pbem.numbers import ID_CONVERTER
from pbem.services import chat
from pbem.services import games as game_service
from pbem.services.bots import level_of_choice
from pbem.services.calendar import DAY
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError
from pbem.services.events import events_of
from pbem.services.game_lists import PAGE_SIZE, visible_games
from pbem.services.game_organisers import organises
from pbem.services.names import refuse_control_characters, shown_name
from pbem.services.replay import engine_game
from pbem.services.resign import resign
from pbem.services.results import game_result
from pbem.services.time_control import TimeControl
from pbem.services.turns import RefusalReason, TurnRefused, accept_turn

blp = Blueprint("api_games", __name__, description="Games, seats and moves")

MAX_PAGE_SIZE = 2 * PAGE_SIZE
STATUS_FOR = {Forbidden: 403, NotFound: 404, Conflict: 409, Invalid: 422}


def errors(code: int, description: str) -> Callable[[View], View]:
    """Document an error answer with the shape every error has."""
    return blp.alt_response(code, schema=ErrorSchema, description=description)


def authenticated(method: View) -> View:
    return errors(401, "No valid API token")(method)


SEAT_URL = f"/<game_id>/seats/<{ID_CONVERTER}:position>"


@blp.errorhandler(ServiceError)
def service_error(error: ServiceError) -> tuple[dict[str, Any], int]:
    """A service's refusal as an error answer; other API blueprints register it too."""
    return _error(STATUS_FOR.get(type(error), 400), str(error))


def _error(code: int, message: str) -> tuple[dict[str, Any], int]:
    """The same shape as flask-smorest's own error answers."""
    return {"code": code, "status": HTTP_STATUS_CODES[code], "message": message}, code


def seat_json(seat: Seat, user: User) -> dict[str, Any]:
    kind = "bot" if seat.bot else "user" if seat.user_id else "open"  # resigned: a bot plays
    return {
        "position": seat.position,
        "colour": seat.colour,
        "name": seat.name,
        "shown_name": shown_name(seat),
        "player": seat.user_id,
        "kind": kind,
        "bot_level": seat.bot,
        "mine": seat.user_id == user.id,
        "resigned": seat.has_left,
        "deadline": seat.timeout_at,
        "own_deadline": seat.deadline,
        "waiting_since": seat.asked_at,
        "bank_days_left": seat.bank_seconds / DAY if _has_clock(seat) else None,
    }


def _has_clock(seat: Seat) -> bool:
    """Bots (and the seats of players who resigned, which bots play) have no clock."""
    return seat.game.days_per_move is not None and seat.bot is None


def game_json(game: Game, user: User) -> dict[str, Any]:
    control = TimeControl.of(game)
    return {
        "id": game.public_id,
        "title": shown_title(game),
        "league": _league_place(game),
        "ruleset": game.ruleset,
        "version": game.ruleset_version,
        "options": game.options,
        "status": game.status,
        "to_act": game.to_act,
        "seats": [seat_json(seat, user) for seat in game.seats],
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "paused_at": game.paused_at,
        "abandoned_at": game.abandoned_at,
        "organiser": organises(game, user),
        "result": _result_json(game),
        "time_control": control.to_json() if control else None,
        "stand_in": game.stand_in,
    }


def _result_json(game: Game) -> dict[str, Any] | None:
    result = game_result(game)
    return result.to_json() if result else None


def _league_place(game: Game) -> dict[str, Any] | None:
    if game.season is None:
        return None
    league = game.season.league
    return {
        "id": league.public_id,
        "name": league.name,
        "season": game.season.number,
        "division": game.division,
        "round": game.round,
        "number": game.number,
    }


@blp.route("")
class Games(MethodView):
    @authenticated
    @blp.doc(operationId="listGames")
    @blp.response(200, GameSchema(many=True))
    @blp.paginate(page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)
    def get(self, pagination_parameters: PaginationParameters) -> list[dict[str, Any]]:
        """Your games and the games waiting for players, newest first, a page
        at a time (see the X-Pagination header: total, next_page...)"""
        user = api_user()
        page = visible_games(
            request_session(), user, pagination_parameters.page, pagination_parameters.page_size
        )
        pagination_parameters.item_count = page.total
        return [game_json(game, user) for game in page.games]

    @authenticated
    @blp.doc(operationId="createGame")
    @blp.arguments(GameCreateSchema)
    @blp.response(201, GameSchema)
    @errors(422, "Unknown game, bad options, player count or time control")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a game: seat yourself, bots and open seats for others to join"""
        user = api_user()
        if body["seats"].count("me") > 1:
            raise Invalid(_("you can take one seat only"))
        specs = [
            game_service.SeatSpec(user=user if kind == "me" else None, bot=level_of_choice(kind))
            for kind in body["seats"]
        ]
        clock = body["time_control"]
        session = request_session()
        game = game_service.create_game(
            session,
            user,
            body["ruleset"],
            specs,
            body["options"],
            body.get("version"),
            time_control=TimeControl(**clock) if clock else None,
            title=refuse_control_characters(body["title"], _("a title")),
            stand_in=body["stand_in"],
        )
        session.commit()
        return game_json(game, user)


@blp.route("/<game_id>")
class GameResource(MethodView):
    @authenticated
    @blp.doc(operationId="getGame")
    @blp.response(200, GameSchema)
    @errors(404, "No such game, or not yours to see")
    def get(self, game_id: str) -> dict[str, Any]:
        """One game"""
        user = api_user()
        return game_json(game_service.visible_game(request_session(), game_id, user), user)


@blp.route("/<game_id>/join")
class Join(MethodView):
    @authenticated
    @blp.doc(operationId="joinGame")
    @blp.arguments(JoinSchema, required=False)
    @blp.response(200, GameSchema)
    @errors(404, "No such game")
    @errors(409, "No open seat, or you sit here already")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Take an open seat; the game starts when the last one is taken"""
        user = api_user()
        session = request_session()
        seat = game_service.join_game(session, game_id, user, body.get("position"))
        session.commit()
        return game_json(seat.game, user)


def _own_seat(game_id: str, position: int) -> Seat:
    return game_service.own_seat(request_session(), game_id, position, api_user())


@blp.route(f"{SEAT_URL}/view")
class SeatView(MethodView):
    @authenticated
    @blp.doc(operationId="getSeatView")
    @blp.response(200, ViewSchema)
    @errors(404, "No such game or seat of yours")
    @errors(409, "The game waits for players")
    def get(self, game_id: str, position: int) -> dict[str, Any]:
        """What your seat sees: board, your private information, history"""
        seat = _own_seat(game_id, position)
        played = engine_game(seat.game)
        return {
            "game": game_id,
            "seat": position,
            "view": played.view(position),
            "picture": board_text(played.state, position, current_language()),
            "ply": len(played.log),
            "events": events_of(request_session(), seat.game),
        }


@blp.route(f"{SEAT_URL}/legal")
class LegalMoves(MethodView):
    @authenticated
    @blp.doc(operationId="getLegalMoves")
    @blp.response(200, LegalMovesSchema)
    @errors(404, "No such game or seat of yours")
    @errors(409, "The game waits for players")
    def get(self, game_id: str, position: int) -> dict[str, Any]:
        """Every move your seat may make now (empty when it is not your turn)"""
        game = _own_seat(game_id, position).game
        if game.abandoned_at is not None:
            return {"moves": []}
        state = engine_game(game).state
        return {"moves": [state.format_move(m) for m in state.legal_moves(position)]}


@blp.route(f"{SEAT_URL}/moves")
class Moves(MethodView):
    @authenticated
    @blp.doc(operationId="submitMoves")
    @blp.arguments(SubmitSchema)
    @blp.response(202, SubmissionSchema)
    @errors(404, "No such game or seat of yours")
    @errors(409, "Not your turn, or your last submission still waits")
    @errors(422, "Illegal or malformed move: the message says why")
    def post(
        self, body: dict[str, Any], game_id: str, position: int
    ) -> tuple[Submission, int, dict[str, str]]:
        """Send one turn's moves; a worker applies them all or none (a draw stands)"""
        seat = _own_seat(game_id, position)
        session = request_session()
        try:
            submission = accept_turn(
                session, seat, api_user().id, "\n".join(body["moves"]), Channel.API, body.get("ply")
            )
        except TurnRefused as refusal:
            _answer_refusal(refusal)
        session.commit()
        return submission, 202, {"Location": _submission_url(submission)}


def _submission_url(submission: Submission) -> str:
    return url_for(
        "api_games.SubmissionResource",
        game_id=submission.game.public_id,
        position=submission.seat.position,
        submission_id=submission.id,
    )


def _answer_refusal(refusal: TurnRefused) -> NoReturn:
    """The error answer for a turn the one door refused: the rule it broke
    (with its message id, for programs), or why it could not be taken now."""
    exc, message = refusal.illegal, refusal.said(page_language())
    if refusal.why == RefusalReason.ILLEGAL and exc is not None:
        errors = refusal_of(exc) or {"code": None, "params": {}, "rule": exc.rule}
        abort(refusal.status, message=message, errors=errors)
    if refusal.why == RefusalReason.MOVED_ON:
        abort(refusal.status, message=message, errors={"rule": "moved on"})
    if refusal.why == RefusalReason.NOT_HOLDER:
        raise NotFound(message)
    raise Conflict(message)


@blp.route(f"{SEAT_URL}/resign")
class Resign(MethodView):
    @authenticated
    @blp.doc(operationId="resignSeat")
    @blp.response(200, GameSchema)
    @errors(404, "No such game or seat of yours")
    @errors(409, "The game is not going on, or you resigned already")
    def post(self, game_id: str, position: int) -> dict[str, Any]:
        """Leave the game: a bot plays your seat to the end, the others are told"""
        seat = _own_seat(game_id, position)
        session = request_session()
        resign(session, seat)
        session.commit()
        return game_json(seat.game, api_user())


@blp.route("/<game_id>/chat")
class Chat(MethodView):
    @authenticated
    @blp.doc(operationId="listChat")
    @blp.response(200, ChatMessageSchema(many=True))
    @errors(404, "No such game of yours")
    def get(self, game_id: str) -> list[ChatMessage]:
        """The game's chat, oldest first (players only)"""
        seat = game_service.seat_of(request_session(), game_id, api_user())
        return chat.messages(request_session(), seat.game)

    @authenticated
    @blp.doc(operationId="postChat")
    @blp.arguments(ChatPostSchema)
    @blp.response(201, ChatSentSchema)
    @errors(404, "No such game of yours")
    @errors(422, "Empty or too long")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Write to the other players: kept with the game and mailed to them"""
        session = request_session()
        seat = game_service.seat_of(session, game_id, api_user())
        limit = current_app.config["PBEM_CHAT_MAX_CHARS"]
        sent = chat.post(session, seat, body["text"], Channel.API, limit)
        session.commit()
        return {"message": sent.message, "readers": sent.readers, "summary": sent.summary}


@blp.route(f"/<game_id>/chat/<{ID_CONVERTER}:message_id>")
class ChatLine(MethodView):
    @authenticated
    @blp.doc(operationId="removeChatLine")
    @blp.response(200, ChatMessageSchema)
    @errors(403, "Not an organiser of the game nor an administrator")
    @errors(404, "No such game or chat line")
    def delete(self, game_id: str, message_id: int) -> ChatMessage:
        """Remove a chat line (the game's organisers, administrators): its text is erased"""
        session = request_session()
        line = chat.remove(
            session, game_service.find_game(session, game_id), message_id, api_user()
        )
        session.commit()
        return line


@blp.route(f"{SEAT_URL}/submissions/<{ID_CONVERTER}:submission_id>")
class SubmissionResource(MethodView):
    @authenticated
    @blp.doc(operationId="getSubmission")
    @blp.response(200, SubmissionSchema)
    @errors(404, "No such submission of yours")
    def get(self, game_id: str, position: int, submission_id: int) -> Submission:
        """Whether a submission was accepted, and why not"""
        seat = _own_seat(game_id, position)
        submission = request_session().get(Submission, submission_id)
        if submission is None or submission.seat_id != seat.id:
            raise NotFound(_("no such submission"))
        return submission
