"""Bearer-token authentication for the API."""

from __future__ import annotations

from flask import Flask, g, request
from webargs.flaskparser import abort

from pbem.db import request_session
from pbem.models import User
from pbem.services.accounts import user_for_token


def api_user() -> User:
    """The user the request's bearer token belongs to; 401 without a valid one."""
    user = token_user()
    if user is None:
        abort(
            401,
            message="send a valid API token: Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return user


def token_user() -> User | None:
    """The user the request's bearer token belongs to, or None: for callers
    that must not answer for the view (the rate limits count users only)."""
    if "api_user" not in g:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        session = request_session()
        user = user_for_token(session, token.strip()) if scheme == "Bearer" else None
        if session.dirty:
            session.commit()  # keeps the token's last use
        g.api_user = user
    return g.api_user


def api_user_key() -> str:
    """Rates count per user, whichever token they use (no_api_user exempts
    a request without a valid one: raising the 401 from a rate's key reads
    to the limiter as broken storage)."""
    user = token_user()
    assert user is not None  # exempted otherwise
    return f"api-user:{user.id}"


def no_api_user() -> bool:
    """A write without a valid token is counted for nobody: it is refused (401)."""
    return token_user() is None


# Every API write needs a token; none is public.
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def _writes_need_a_token() -> None:
    """A write without a valid token is answered 401 before its body is read,
    so a stranger learns nothing from the body's validation (422)."""
    if request.method in WRITE_METHODS and (request.blueprint or "").startswith("api_"):
        api_user()


def init_app(app: Flask) -> None:
    app.before_request(_writes_need_a_token)
    app.teardown_request(lambda _exc: g.pop("api_user", None))
