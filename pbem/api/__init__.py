"""The JSON API (flask-smorest): marshmallow schemas, an OpenAPI document at
/api/openapi.json, bearer tokens per user."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from pbem.api import auth, bodies
from pbem.api.account import blp as account_blp
from pbem.api.events import blp as events_blp
from pbem.api.games import blp as games_blp
from pbem.api.league_exports import blp as league_exports_blp
from pbem.api.leagues import blp as leagues_blp
from pbem.api.organiser import blp as organiser_blp
from pbem.api.players import blp as players_blp
from pbem.api.records import blp as records_blp
from pbem.api.rulesets import blp as rulesets_blp
from pbem.api.settings import blp as settings_blp
from pbem.api.vacation import blp as vacation_blp
from pbem.api.webhooks import WEBHOOKS_DOC
from pbem.api.webhooks import blp as webhooks_blp
from pbem.ratelimit import WRITES, Rate, limited

API_PREFIX = "/api"
# Every change through the API counts towards one rate per user.
API_WRITES = Rate(
    "PBEM_API_WRITE_LIMIT",
    lazy_gettext("Too many changes through the API"),
    key=auth.api_user_key,
    methods=WRITES,
    exempt_when=auth.no_api_user,
    scope="api-writes",
)
# Each blueprint and where it is served, under /api/v1/.
BLUEPRINTS = (
    (rulesets_blp, "rulesets"),
    (games_blp, "games"),
    (organiser_blp, "games"),
    (events_blp, "games"),
    (records_blp, "games"),
    (settings_blp, "settings"),
    (account_blp, "account"),
    (vacation_blp, "vacation"),
    (players_blp, "players"),
    (leagues_blp, "leagues"),
    (league_exports_blp, "leagues"),
    (webhooks_blp, "webhooks"),
)
for blueprint, _url in BLUEPRINTS:
    limited(API_WRITES)(blueprint)

SETTINGS = {
    "API_TITLE": "pbem",
    "API_VERSION": "v1",
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": API_PREFIX,
    "OPENAPI_JSON_PATH": "openapi.json",
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Play turn-based board games: create, join, view, move, chat, "
            "resign, organise (extend, pause, resume, hand to a bot, choose the stand-in "
            "bots' level, replace, abandon), "
            "download a finished game's record, and run leagues (seasons, standings). "
            "Seats are numbered from 0 here: `position` in URLs and JSON, `to_act` "
            "and `seat` count from 0 (the engine's seat numbers), while pages and mails "
            "number seats from 1 for people (seat 0 here is seat 1 there). No text sent may "
            "hold a NUL character (422)."
        },
        "security": [{"bearerAuth": []}],
        "webhooks": WEBHOOKS_DOC,
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A user's API token (`pbem user token EMAIL`).",
                }
            }
        },
    },
}


# flask-smorest sends X-Pagination as JSON text in the header, not as an object.
PAGINATION_HEADER = {
    "description": "where the page stands in the whole list, as a JSON object in the"
    ' header\'s text: {"total", "total_pages", "first_page", "last_page", "page",'
    ' "previous_page", "next_page"} (the last two only when there is one)',
    "schema": {"type": "string"},
    "example": '{"total": 45, "total_pages": 3, "first_page": 1, "last_page": 3,'
    ' "page": 2, "previous_page": 1, "next_page": 3}',
}


class PbemApi(Api):  # type: ignore[misc]  # flask-smorest has no types: Api is Any
    """Answers errors in JSON under /api only, so pages keep their own error pages."""

    def handle_http_exception(self, error: HTTPException) -> HTTPException | ResponseReturnValue:
        if request.path == API_PREFIX or request.path.startswith(API_PREFIX + "/"):
            payload, code, headers = super().handle_http_exception(error)
            # The methods a 405 names (Allow), as Werkzeug's own answer gives them.
            headers = {**dict(error.get_headers()), **(headers or {})}
            headers.pop("Content-Type", None)
            if "errors" in payload and "message" not in payload:
                # A refused body: the message says which field and why, not just "422".
                payload["message"] = validation_summary(payload["errors"])
            # Refusals raised outside our views (too large, too many) say why too.
            payload.setdefault("message", error.description)
            return payload, code, headers
        return error

    def _register_pagination_header(self) -> None:
        self.spec.components.header("PAGINATION", PAGINATION_HEADER, lazy=True)


def _null_among_choices(
    _converter: Any, field: Any, ret: dict[str, Any], **_: Any
) -> dict[str, Any]:
    """apispec lists a nullable field's choices without null, which JSON Schema
    (OpenAPI 3.1) reads as "null is refused"; the field takes it."""
    if field.allow_none and "enum" in ret and None not in ret["enum"]:
        return {"enum": [*ret["enum"], None]}
    return {}


def validation_summary(errors: dict[str, Any]) -> str:
    """{"json": {"time_control": {"bank_days": ["..."]}}} -> "time_control.bank_days: ..."."""
    lines = [
        f"{path}: {' '.join(messages)}"
        for location in errors.values()
        for path, messages in _flattened(location, "")
    ]
    return "; ".join(lines)


def _flattened(node: Any, path: str) -> list[tuple[str, list[str]]]:
    if isinstance(node, dict):
        return [
            pair
            for key, value in node.items()
            for pair in _flattened(value, f"{path}.{key}" if path else str(key))
        ]
    messages = [node] if isinstance(node, str) else [str(message) for message in node]
    # marshmallow's English, in the reader's language where the catalogues
    # know it (pbem.api.validation_texts); our own validators' are already.
    return [(path or "body", [gettext(message) for message in messages])]


def init_app(app: Flask) -> PbemApi:
    for key, value in SETTINGS.items():
        app.config.setdefault(key, value)
    auth.init_app(app)
    api = PbemApi(app)
    api.ma_plugin.converter.add_attribute_function(_null_among_choices)
    for blueprint, url in BLUEPRINTS:
        api.register_blueprint(blueprint, url_prefix=f"{API_PREFIX}/v1/{url}")
    bodies.init_app(app)
    app.extensions["pbem.api"] = api
    return api
