"""Abuse limits: the size of a request body (PBEM_MAX_REQUEST_BYTES; the
HTTP mail door takes PBEM_MAIL_MAX_BYTES), and rates (Flask-Limiter):
sign-in links per address and per client,
invitations per inviter, API writes per user, the HTTP mail door per client,
and answers to refused mail per sender and in all, so a flood of forged
mail cannot make the server flood the forged addresses.

A view's rates are written where the view is (`@limited(Rate(...))` on a
view function, a MethodView or a blueprint); `init_app` attaches them to
each app's limiter.

Each app gets a limiter of its own (tests run several apps in one process).
Counters live in PBEM_RATELIMIT_STORAGE_URL, by default the broker's Redis,
under the installation's PBEM_TASK_QUEUE; when that storage cannot be
reached, requests are counted in memory instead of failing. A counter per
address is kept under a keyed hash of it (`address_key`), never the
address: the storage, and its dumps, hold nobody's address.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, abort, current_app, request
from flask_babel import gettext
from flask_babel.speaklater import LazyString
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem.broker_check import REDIS_WAITS, is_redis
from pbem.config import ConfigError

log = logging.getLogger(__name__)

EXTENSION = "pbem.limiter"
LIMIT_SETTINGS = (
    "PBEM_SIGN_IN_LIMIT_PER_ADDRESS",
    "PBEM_SIGN_IN_LIMIT_PER_CLIENT",
    "PBEM_INVITATION_LIMIT",
    "PBEM_API_WRITE_LIMIT",
    "PBEM_MAIL_INBOUND_LIMIT",
    "PBEM_REFUSAL_LIMIT",
    "PBEM_REFUSAL_LIMIT_TOTAL",
)
WRITES = ("POST", "PUT", "PATCH", "DELETE")
RATES = "pbem_rates"  # the attribute that carries a view's rates to init_app
Limited = TypeVar("Limited")


@dataclass(frozen=True)
class Rate:
    """How often a view may be used: at most the setting's rate per key."""

    setting: str  # one of LIMIT_SETTINGS
    refusal: LazyString  # what was done too often, said in the 429 answer
    key: Callable[[], str] = get_remote_address  # whose count: the client's by default
    methods: tuple[str, ...] | None = None  # None: every method
    cost: int | Callable[[], int] = 1
    exempt_when: Callable[[], bool] | None = None
    scope: str | None = None  # a count shared by every view limited with it


def limited(*rates: Rate) -> Callable[[Limited], Limited]:
    """Limit a view function, a MethodView or a blueprint at `rates`, in this
    order; every app created after attaches them (init_app)."""

    def mark(view: Limited) -> Limited:
        setattr(view, RATES, (*getattr(view, RATES, ()), *rates))
        return view

    return mark


def storage_url(config: dict[str, Any]) -> str:
    """The setting, else the broker when it is Redis (shared by every web
    process), else memory:// (one process only)."""
    broker = config["PBEM_BROKER_URL"]
    default = broker if is_redis(broker) else "memory://"
    return config["PBEM_RATELIMIT_STORAGE_URL"] or default


def _storage_waits(url: str) -> dict[str, str | int]:
    """A Redis that never answers costs a request BROKER_WAIT_SECONDS, not
    the system's connect timeout (over 2 minutes), before the limits fall
    back to memory."""
    return dict(REDIS_WAITS) if is_redis(url) else {}


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
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]  # Flask's documented way to wrap its WSGI app
    storage = storage_url(config)
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=storage,
        storage_options=_storage_waits(storage),
        key_prefix=config["PBEM_TASK_QUEUE"],
        headers_enabled=True,
        in_memory_fallback_enabled=True,
        swallow_errors=True,
    )
    app.extensions[EXTENSION] = limiter
    app.before_request(_cap_request_body)
    for endpoint, view in list(app.view_functions.items()):
        rates = getattr(view, RATES, ()) or getattr(getattr(view, "view_class", None), RATES, ())
        for rate in rates:
            view = _route_limit(limiter, rate)(view)
        app.view_functions[endpoint] = view
    for blueprint in app.blueprints.values():
        for rate in getattr(blueprint, RATES, ()):
            _route_limit(limiter, rate)(blueprint)
    return limiter


def _cap_request_body() -> None:
    """Refuse a body over the cap before anything reads it, saying how much is allowed."""
    if request.blueprint == "mail_inbound":
        request.max_content_length = current_app.config["PBEM_MAIL_MAX_BYTES"]
    cap = request.max_content_length
    if cap is not None and ((request.content_length or 0) > cap or _chunked_body_over(cap)):
        abort(
            413,
            description=gettext(
                "The request is larger than %(cap)s bytes, the most accepted here.", cap=cap
            ),
        )


def _chunked_body_over(cap: int) -> bool:
    """Whether a chunked body (it has no Content-Length) is over the cap.
    Werkzeug stops reading such a body at the cap without a word, and the
    view would take the cut body for the whole: read it here, one byte past
    the cap, and keep it for the view."""
    if (
        request.content_length is not None
        or "chunked" not in request.headers.get("Transfer-Encoding", "").lower()
    ):
        return False
    request.max_content_length = cap + 1
    return len(request.get_data(cache=True)) > cap


def _route_limit(limiter: Limiter, rate: Rate) -> Callable[[Any], Any]:
    """The limiter's decorator for `rate`."""
    arguments: dict[str, Any] = {
        "key_func": rate.key,
        "methods": list(rate.methods) if rate.methods else None,
        "cost": rate.cost,
        "exempt_when": rate.exempt_when,
        "error_message": _message(rate.refusal, rate.setting),
    }
    if rate.scope is not None:
        return limiter.shared_limit(_setting(rate.setting), rate.scope, **arguments)
    return limiter.limit(_setting(rate.setting), **arguments)


def address_key(address: str) -> str:
    """The address as rate counters name it: an HMAC under the app's secret
    key, the same for the same address (case aside), not to be read back."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, address.strip().lower().encode(), hashlib.sha256).hexdigest()[:32]


def allow_refusal_answer(address: str) -> bool:
    """Whether a refused mail from `address` may be answered now: at most
    PBEM_REFUSAL_LIMIT per sender and PBEM_REFUSAL_LIMIT_TOTAL to everyone,
    since forged senders, one or thousands, must not turn the server into a
    mail cannon. Outside requests (the worker reads mail), so the limiter is
    asked directly."""
    app = current_app
    limiter: Limiter = app.extensions[EXTENSION]
    counters = {  # per sender first: one sender's flood leaves the rest alone
        "PBEM_REFUSAL_LIMIT": ("refusal", address_key(address)),
        "PBEM_REFUSAL_LIMIT_TOTAL": ("refusals",),
    }
    try:
        return all(
            limiter.limiter.hit(limit, app.config["PBEM_TASK_QUEUE"], *key)
            for setting, key in counters.items()
            for limit in parse_many(app.config[setting])
        )
    except Exception:  # storage unreachable: answer rather than lose the answer
        log.warning("rate-limit storage unreachable; answering a refused mail unlimited")
        return True
