"""A read whose database connection is lost in the middle of the request
(PostgreSQL restarted or failed over, or its backend was killed) is run once
more from the start on a fresh connection, as the reader would have retried,
instead of answering 500. pool_pre_ping (pbem.db) covers connections lost
between requests; this covers the one in use. A write is never repeated: whether
it was applied is unknown, so it fails as before."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, request
from sqlalchemy.exc import DBAPIError, PendingRollbackError

log = logging.getLogger(__name__)

READS = ("GET", "HEAD")
RUN_AGAIN = "pbem.run_again"  # set in the WSGI environ by the error handler
RAN_AGAIN = "pbem.ran_again"


def lost_connection(error: BaseException) -> bool:
    """The connection died under a statement, or under an earlier one of the
    same transaction whose error something swallowed (the transaction is then
    left waiting for a rollback)."""
    died = isinstance(error, DBAPIError) and error.connection_invalidated
    return died or isinstance(error, PendingRollbackError)


def _ask_to_run_again(error: Exception) -> Any:
    if request.method in READS and lost_connection(error) and RAN_AGAIN not in request.environ:
        log.warning(
            "database connection lost during %s %s; running it again", request.method, request.path
        )
        request.environ[RUN_AGAIN] = True
        return "", 503
    raise error


class RunReadsAgain:
    """WSGI middleware: holds back the answer of a read the app asked to run
    again, and runs it once more in a new request context."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") not in READS:
            return self.app(environ, start_response)
        held: list[Any] = []

        def hold(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            held[:] = [status, headers, exc_info]
            return lambda _data: None  # Flask never writes through it

        body = self.app(environ, hold)
        if environ.pop(RUN_AGAIN, False):
            getattr(body, "close", lambda: None)()
            environ[RAN_AGAIN] = True
            return self.app(environ, start_response)
        status, headers, exc_info = held
        start_response(status, headers, *([exc_info] if exc_info else []))
        return body


def init_app(app: Flask) -> None:
    app.register_error_handler(DBAPIError, _ask_to_run_again)
    app.register_error_handler(PendingRollbackError, _ask_to_run_again)
    app.wsgi_app = RunReadsAgain(app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to wrap its WSGI app
