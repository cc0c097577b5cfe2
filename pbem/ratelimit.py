"""Abuse limits: the size of a request body (PBEM_MAX_REQUEST_BYTES; the
HTTP mail door takes PBEM_MAIL_MAX_BYTES), and rates (Flask-Limiter):
sign-in links per address and per client,
invitations per inviter, API writes per user, the HTTP mail door per client,
and answers to refused mail per sender, so a flood of forged mail cannot
make the server flood the forged address.

Each app gets a limiter of its own (tests run several apps in one process).
Counters live in PBEM_RATELIMIT_STORAGE_URL, by default the broker's Redis,
under the installation's PBEM_TASK_QUEUE; when that storage cannot be
reached, requests are counted in memory instead of failing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, abort, current_app, request
from flask_babel import gettext, lazy_gettext
from flask_babel.speaklater import LazyString
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem.api.auth import WRITE_METHODS, token_user
from pbem.config import ConfigError
from pbem.web.common import me

log = logging.getLogger(__name__)

EXTENSION = "pbem.limiter"
LIMIT_SETTINGS = (
    "PBEM_SIGN_IN_LIMIT_PER_ADDRESS",
    "PBEM_SIGN_IN_LIMIT_PER_CLIENT",
    "PBEM_INVITATION_LIMIT",
    "PBEM_API_WRITE_LIMIT",
    "PBEM_MAIL_INBOUND_LIMIT",
    "PBEM_REFUSAL_LIMIT",
)


def storage_url(config: dict[str, Any]) -> str:
    """The setting, else the broker when it is Redis (shared by every web
    process), else memory:// (one process only)."""
    broker = config["PBEM_BROKER_URL"]
    default = broker if broker.startswith(("redis://", "rediss://")) else "memory://"
    return config["PBEM_RATELIMIT_STORAGE_URL"] or default


def _check_settings(config: dict[str, Any]) -> None:
    for name in LIMIT_SETTINGS:
        try:
            parse_many(config[name])
        except ValueError:
            raise ConfigError(
                f'{name} must be a rate such as "5 per hour" or "10/minute;100/day",'
                f" not {config[name]!r}"
            ) from None


def _setting(name: str) -> Callable[[], str]:
    return lambda: current_app.config[name]


def _message(what: LazyString, setting: str) -> Callable[[], str]:
    return lambda: gettext(
        "%(what)s (at most %(limit)s). Please try again later.",
        what=what,
        limit=current_app.config[setting],
    )


def init_app(app: Flask) -> Limiter:
    """Call after every blueprint is registered: the limits wrap their views."""
    config = app.config
    _check_settings(config)
    proxies = config["PBEM_TRUSTED_PROXIES"]
    if proxies:
        # Behind nginx every request comes from the proxy: take the client's
        # address from X-Forwarded-For, trusting only that many proxies.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=storage_url(config),
        key_prefix=config["PBEM_TASK_QUEUE"],
        headers_enabled=True,
        in_memory_fallback_enabled=True,
        swallow_errors=True,
    )
    app.extensions[EXTENSION] = limiter
    app.before_request(_cap_request_body)
    _limit_view(
        app,
        "auth.sign_in",
        limiter.limit(
            _setting("PBEM_SIGN_IN_LIMIT_PER_CLIENT"),
            methods=["POST"],
            error_message=_message(
                lazy_gettext("Too many sign-in links were asked for from your network"),
                "PBEM_SIGN_IN_LIMIT_PER_CLIENT",
            ),
        ),
        limiter.limit(
            _setting("PBEM_SIGN_IN_LIMIT_PER_ADDRESS"),
            key_func=_sign_in_address,
            methods=["POST"],
            error_message=_message(
                lazy_gettext("Too many sign-in links were asked for this address"),
                "PBEM_SIGN_IN_LIMIT_PER_ADDRESS",
            ),
        ),
    )
    _limit_view(
        app,
        "lobby.new_game",
        limiter.limit(
            _setting("PBEM_INVITATION_LIMIT"),
            key_func=_signed_in_user,
            methods=["POST"],
            cost=_invitations_in_form,
            exempt_when=lambda: _invitations_in_form() == 0,
            error_message=_message(
                lazy_gettext("You have sent too many invitations"), "PBEM_INVITATION_LIMIT"
            ),
        ),
    )
    _limit_view(
        app,
        "api_leagues.Entrants",  # each league invitation mails a stranger
        limiter.limit(
            _setting("PBEM_INVITATION_LIMIT"),
            key_func=_api_user,
            methods=["POST"],
            exempt_when=_no_api_user,
            error_message=_message(
                lazy_gettext("You have sent too many invitations"), "PBEM_INVITATION_LIMIT"
            ),
        ),
    )
    api_writes = limiter.shared_limit(
        _setting("PBEM_API_WRITE_LIMIT"),
        scope="api-writes",
        key_func=_api_user,
        methods=list(WRITE_METHODS),
        exempt_when=_no_api_user,
        error_message=_message(
            lazy_gettext("Too many changes through the API"), "PBEM_API_WRITE_LIMIT"
        ),
    )
    for name, blueprint in app.blueprints.items():
        if name.startswith("api_"):
            api_writes(blueprint)
    limiter.limit(
        _setting("PBEM_MAIL_INBOUND_LIMIT"),
        error_message=_message(lazy_gettext("Too many mails posted"), "PBEM_MAIL_INBOUND_LIMIT"),
    )(app.blueprints["mail_inbound"])
    return limiter


def _cap_request_body() -> None:
    """Refuse a body over the cap before anything reads it, saying how much is allowed."""
    if request.blueprint == "mail_inbound":
        request.max_content_length = current_app.config["PBEM_MAIL_MAX_BYTES"]
    cap = request.max_content_length
    if cap is not None and (request.content_length or 0) > cap:
        abort(
            413,
            description=gettext(
                "The request is larger than %(cap)s bytes, the most accepted here.", cap=cap
            ),
        )


def _limit_view(app: Flask, endpoint: str, *limits: Callable[[Any], Any]) -> None:
    view = app.view_functions[endpoint]
    for limit in limits:
        view = limit(view)
    app.view_functions[endpoint] = view


def _sign_in_address() -> str:
    return "sign-in:" + request.form.get("email", "").strip().lower()


def _signed_in_user() -> str:
    user = me()
    return f"user:{user.id}" if user is not None else get_remote_address()


def _api_user() -> str:
    """Per user, whichever token they use."""
    user = token_user()
    assert user is not None  # _no_api_user exempted the request otherwise
    return f"api-user:{user.id}"


def _no_api_user() -> bool:
    """A request without a valid token is counted for nobody: the view refuses it (401).
    (Raising the 401 from the key instead reads to the limiter as broken storage.)"""
    return request.method in WRITE_METHODS and token_user() is None


def _invitations_in_form() -> int:
    return sum(
        1 for key, value in request.form.items() if key.startswith("seat-") and value == "invite"
    )


def allow_refusal_answer(address: str) -> bool:
    """Whether a refused mail from `address` may be answered now (PBEM_REFUSAL_LIMIT):
    forged senders must not turn the server into a mail cannon. Outside requests
    (the worker reads mail), so the limiter is asked directly."""
    app = current_app
    limiter: Limiter = app.extensions[EXTENSION]
    try:
        return all(
            limiter.limiter.hit(limit, app.config["PBEM_TASK_QUEUE"], "refusal", address.lower())
            for limit in parse_many(app.config["PBEM_REFUSAL_LIMIT"])
        )
    except Exception:  # storage unreachable: answer rather than lose the answer
        log.warning("rate-limit storage unreachable; answering %s unlimited", address)
        return True
