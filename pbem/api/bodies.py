"""A request body the OpenAPI document marks required must be there: webargs
reads a missing JSON body as {}, so `PATCH /settings` without one changed
nothing and said 200. Refused with 422 instead, as the document promises;
bodies that may be left out (joining a game, starting a season) say so there."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from flask_babel import gettext
from webargs.flaskparser import abort

BODY_LOCATIONS = ("json", "form", "files")


def _body_required(view: Any) -> bool:
    """Whether the view's @blp.arguments name a body it documents as required."""
    handler = getattr(getattr(view, "view_class", None), request.method.lower(), view)
    parameters = getattr(handler, "_apidoc", {}).get("arguments", {}).get("parameters", [])
    return any(p["in"] in BODY_LOCATIONS and p.get("required", True) for p in parameters)


def _sent_a_body() -> bool:
    """Told by the headers, so nothing is read before the body cap is checked."""
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    return chunked or bool(request.content_length)


def _refuse_missing_body() -> None:
    if not request.blueprint or not request.blueprint.startswith("api_"):
        return
    view = current_app.view_functions.get(request.endpoint or "")
    if view is not None and not _sent_a_body() and _body_required(view):
        message = gettext("This request needs a JSON body.")
        abort(422, message=message, errors={"json": {"body": [message]}})


def init_app(app: Flask) -> None:
    app.before_request(_refuse_missing_body)
