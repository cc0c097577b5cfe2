"""Logging for every pbem process (web, worker, beat, smtpd), set up once in
`create_app`: today's text lines, or with PBEM_LOG_FORMAT=json one JSON object
a line carrying what the process was working on (the web request, the Celery
task, the game, the submission, the outbox row), so a log store can gather
everything about one game or one request across machines. Errors also go to
Sentry when PBEM_SENTRY_DSN is set.

The context lives in a ContextVar: each thread (the embedded worker, the
threaded development server) and each request or task has its own.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any

from celery import Task
from celery.signals import task_postrun, task_prerun
from flask import Flask, Response, g, request

from pbem.config import ConfigError

REQUEST_ID_HEADER = "X-Request-ID"
# What a proxy's request id looks like (a UUID, nginx's $request_id); anything
# else is replaced, so a client cannot write arbitrary text into the log.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
TOKEN_KEY = "pbem_log_token"

_context: ContextVar[dict[str, Any]] = ContextVar("pbem_log_context", default={})  # noqa: B039


def bind(**fields: Any) -> Token[dict[str, Any]]:
    """Add fields (None ones are left out) to the log context until the
    enclosing `log_context`, request or task ends, which undoes this too."""
    known = {name: value for name, value in fields.items() if value is not None}
    return _context.set({**_context.get(), **known})


@contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    token = bind(**fields)
    try:
        yield
    finally:
        _context.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (ISO 8601, UTC), level, logger, message,
    process id, the context fields and the exception's traceback when any."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
            **_context.get(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


def handler(log_format: str) -> logging.Handler:
    """To stderr; without a formatter of its own, basicConfig gives it the
    text format pbem always had."""
    stream = logging.StreamHandler()
    if log_format == "json":
        stream.setFormatter(JsonFormatter())
    return stream


def gunicorn_json_logging() -> dict[str, Any]:
    """gunicorn's `logconfig_dict`: its own loggers (errors, the access log)
    through the JSON formatter too, instead of gunicorn's text."""
    own = {"handlers": [], "propagate": True}
    return {
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json"}},
        "root": {"level": logging.getLogger().level, "handlers": ["stderr"]},
        "loggers": {"gunicorn.error": own, "gunicorn.access": own},
    }


def init_app(app: Flask) -> None:
    # Like logging.basicConfig before: nothing changes when the process has
    # set up logging already (a second app in one process, pytest).
    logging.basicConfig(
        level=app.config["PBEM_LOG_LEVEL"], handlers=[handler(app.config["PBEM_LOG_FORMAT"])]
    )
    if app.config["PBEM_LOG_FORMAT"] == "json":
        logging.captureWarnings(True)  # Python's warnings as JSON lines too
    app.before_request(_request_started)
    app.after_request(_echo_request_id)
    app.teardown_request(_request_ended)
    if app.config["PBEM_SENTRY_DSN"]:
        init_sentry(app.config["PBEM_SENTRY_DSN"], app.config["PBEM_ENV"])


def _request_started() -> None:
    given = request.headers.get(REQUEST_ID_HEADER, "")
    request_id = given if SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
    g.request_id = request_id
    setattr(g, TOKEN_KEY, bind(request=request_id))


def _echo_request_id(response: Response) -> Response:
    if "request_id" in g:
        response.headers[REQUEST_ID_HEADER] = g.request_id
    return response


def _request_ended(_error: BaseException | None) -> None:
    token = g.pop(TOKEN_KEY, None)
    if token is not None:
        _context.reset(token)


@task_prerun.connect
def _task_started(task_id: str, task: Task[Any, Any], **_kwargs: Any) -> None:
    setattr(task.request, TOKEN_KEY, bind(task=task_id, task_name=task.name))


@task_postrun.connect
def _task_ended(task: Task[Any, Any], **_kwargs: Any) -> None:
    token = getattr(task.request, TOKEN_KEY, None)
    if token is not None:
        _context.reset(token)


def init_sentry(dsn: str, environment: str) -> None:
    """Errors (exceptions and error log lines) of requests and tasks to Sentry."""
    try:
        import sentry_sdk
        from sentry_sdk.integrations.celery import CeleryIntegration
        from sentry_sdk.integrations.flask import FlaskIntegration
        from sentry_sdk.integrations.logging import LoggingIntegration
    except ImportError:
        raise ConfigError(
            "PBEM_SENTRY_DSN is set but sentry-sdk is not installed: install pbem[sentry]"
        ) from None
    # Named, not left to the default: sentry-sdk 3 stopped making events of
    # error log lines unless told (event_level=None), and pbem's errors in
    # tasks and sweeps are mostly logged, not raised.
    logged = LoggingIntegration(level=logging.INFO, event_level=logging.ERROR)
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[logged, FlaskIntegration(), CeleryIntegration()],
    )
