"""Bearer-token authentication for the API."""

from __future__ import annotations

from flask import Flask, g, request
from flask_smorest import abort

from pbem.db import request_session
from pbem.models import User
from pbem.services.accounts import user_for_token


def api_user() -> User:
    """The user the request's bearer token belongs to; 401 without a valid one."""
    if "api_user" not in g:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        user = user_for_token(request_session(), token.strip()) if scheme == "Bearer" else None
        if user is None:
            abort(
                401,
                message="send a valid API token: Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        request_session().commit()  # keeps the token's last use
        g.api_user = user
    return g.api_user


def api_user_key() -> str:
    """Rates count per user, whichever token they use; a request without a
    valid token is refused (401)."""
    return f"api-user:{api_user().id}"


def init_app(app: Flask) -> None:
    app.teardown_request(lambda _exc: g.pop("api_user", None))
