"""The signed-in user's webhooks: their own turns, or (as its organiser) a
game's or a league's news, posted to Discord, Slack, Matrix or any JSON
receiver. The JSON deliveries are documented in the document's `webhooks`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema
from marshmallow import validate

from pbem.api.auth import api_user
from pbem.api.games import service_error
from pbem.api.pages import View
from pbem.api.schemas import COUNTING, within
from pbem.db import request_session
from pbem.models import Webhook, WebhookFormat
from pbem.notify import hooks
from pbem.numbers import ID_CONVERTER
from pbem.services.errors import ServiceError

blp = Blueprint("api_webhooks", __name__, description="Webhooks: your turns, your games' news")
blp.errorhandler(ServiceError)(service_error)
HOOK_URL = f"/<{ID_CONVERTER}:hook_id>"


class WebhookSchema(ma.Schema):
    id = ma.fields.Integer(dump_only=True, validate=within(COUNTING))
    url = ma.fields.String(
        required=True,
        validate=validate.Length(min=1, max=2000),
        metadata={
            "description": "where to post; a Matrix hook is the room's"
            " .../rooms/{room}/send/m.room.message?access_token=... address"
        },
    )
    format = ma.fields.String(
        required=True,
        validate=validate.OneOf(list(WebhookFormat)),
        metadata={"description": "json: pbem's signed JSON; discord, slack, matrix: their own"},
    )
    game = ma.fields.String(
        allow_none=True,
        validate=validate.Length(max=16),
        metadata={"description": "a game you organise: its every move and its end"},
    )
    league = ma.fields.String(
        allow_none=True,
        validate=validate.Length(max=16),
        metadata={
            "description": "a league you organise: moves, ends, standings, rounds started;"
            " neither game nor league: your own turns"
        },
    )
    disabled = ma.fields.Boolean(
        dump_only=True, metadata={"description": "switched off after failing too often"}
    )


class NewWebhookSchema(WebhookSchema):
    secret = ma.fields.String(
        dump_only=True,
        metadata={"description": "signs the JSON deliveries; shown this once"},
    )


def hook_json(hook: Webhook, secret: str | None = None) -> dict[str, Any]:
    shown = {
        "id": hook.id,
        "url": hook.url,
        "format": hook.format,
        "game": hook.game.public_id if hook.game is not None else None,
        "league": hook.league.public_id if hook.league is not None else None,
        "disabled": hook.disabled_at is not None,
    }
    return shown if secret is None else {**shown, "secret": secret}


@blp.route("")
class Webhooks(MethodView):
    @blp.doc(operationId="listWebhooks")
    @blp.response(200, WebhookSchema(many=True))
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    def get(self) -> list[dict[str, Any]]:
        """Your webhooks (their secrets are not shown again)"""
        return [hook_json(hook) for hook in hooks.hooks_of(request_session(), api_user())]

    @blp.doc(operationId="addWebhook")
    @blp.arguments(WebhookSchema)
    @blp.response(201, NewWebhookSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(403, schema=ErrorSchema, description="Not the game's or league's organiser")
    @blp.alt_response(404, schema=ErrorSchema, description="No such game or league")
    @blp.alt_response(422, schema=ErrorSchema, description="An address pbem may not post to")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Add a webhook; the answer shows its secret, once"""
        session = request_session()
        hook, secret = hooks.add_hook(session, api_user(), config=current_app.config, **body)
        session.commit()
        return hook_json(hook, secret)


def _on_own_hook(operation_id: str, status: int, schema: Any = None) -> Callable[[View], View]:
    """An operation on one of the user's hooks: its id and its answers."""

    def wrap(method: View) -> View:
        for code, description in ((401, "No valid API token"), (404, "No such webhook of yours")):
            method = blp.alt_response(code, schema=ErrorSchema, description=description)(method)
        return blp.doc(operationId=operation_id)(blp.response(status, schema)(method))

    return wrap


@blp.route(HOOK_URL)
class OneWebhook(MethodView):
    @_on_own_hook("removeWebhook", 204)
    def delete(self, hook_id: int) -> None:
        """Remove a webhook"""
        session = request_session()
        hooks.remove_hook(session, api_user(), hook_id)
        session.commit()


@blp.route(f"{HOOK_URL}/test")
class WebhookTest(MethodView):
    @_on_own_hook("testWebhook", 202, WebhookSchema)
    def post(self, hook_id: int) -> dict[str, Any]:
        """Send a test delivery now (one that gets through switches the hook back on)"""
        session = request_session()
        hook = hooks.own_hook(session, api_user(), hook_id)
        hooks.send_test(session, hook)
        session.commit()
        return hook_json(hook)


@blp.route(f"{HOOK_URL}/secret")
class WebhookSecret(MethodView):
    @_on_own_hook("renewWebhookSecret", 200, NewWebhookSchema)
    def post(self, hook_id: int) -> dict[str, Any]:
        """A new secret, shown once; the old one signs nothing any more"""
        session = request_session()
        hook = hooks.own_hook(session, api_user(), hook_id)
        secret = hooks.renew_secret(hook)
        session.commit()
        return hook_json(hook, secret)


_SEAT = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer", "description": "counted from 0"},
        "player": {"type": "string"},
        "deadline": {"type": ["string", "null"], "format": "date-time"},
        "due": {"type": "string", "description": "the deadline in the hook owner's words"},
    },
}
_NAMED = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "name": {"type": "string"},
        "link": {"type": "string", "format": "uri"},
    },
}
# The document's `webhooks` (OpenAPI 3.1): what pbem posts to a hook of
# format json.
WEBHOOKS_DOC = {
    "delivery": {
        "post": {
            "summary": "What pbem posts to a webhook of format json",
            "description": "Sent by pbem's worker after the change commits, retried with"
            " growing waits for a day until the receiver answers 2xx (redirects are not"
            " followed). Check the signature: compute the hex HMAC-SHA256 of"
            ' "<t>.<body>" with the hook\'s secret, compare it with v1, and refuse an old t.',
            "parameters": [
                {
                    "name": "X-Pbem-Signature",
                    "in": "header",
                    "required": True,
                    "schema": {"type": "string"},
                    "example": "t=1764241200,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff",
                    "description": "t: the Unix time it was sent; v1: the hex HMAC-SHA256"
                    ' of "<t>.<body>" with the secret shown when the hook was made',
                }
            ],
            "requestBody": {
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["delivery", "event", "text"],
                            "properties": {
                                "delivery": {"type": "integer"},
                                "event": {
                                    "type": "string",
                                    "enum": [
                                        "your_turn",
                                        "move",
                                        "game_ended",
                                        "standings_changed",
                                        "round_started",
                                        "test",
                                    ],
                                },
                                "game": _NAMED,
                                "league": _NAMED,
                                "to_act": {"type": "array", "items": _SEAT},
                                "division": {"type": "integer", "description": "round_started"},
                                "round": {"type": "integer", "description": "round_started"},
                                "text": {
                                    "type": "string",
                                    "description": "a sentence for people, in the hook"
                                    " owner's language",
                                },
                            },
                        }
                    }
                }
            },
            "responses": {"200": {"description": "any 2xx: delivered"}},
        }
    }
}
