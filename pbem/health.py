"""Is this process alive, and can it serve? `/healthz`, `/readyz` and `pbem check`.

Liveness asks nothing of anyone, so a database outage does not make a service
manager restart every web process; readiness asks the database, the broker
and the migrations, so a load balancer sends no one to a process that would
only answer errors.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from alembic.script import ScriptDirectory
from flask import Blueprint, Flask, Response, current_app, jsonify
from sqlalchemy import inspect, text

from pbem.broker_check import checked_broker, queue_depths, unread_queues
from pbem.db import get_db
from pbem.migrate import alembic_config

log = logging.getLogger(__name__)
bp = Blueprint("health", __name__)
ERROR = "error: "
VERSION_TABLE = "alembic_version"  # Alembic's, as pbem.migrate leaves it named
WARNING = "warning: "


@dataclass
class Readiness:
    checks: dict[str, str] = field(default_factory=dict)  # "ok" or what is wrong

    @property
    def ready(self) -> bool:
        """Whether this process can serve: a warning does not stop it."""
        return all(value == "ok" or value.startswith(WARNING) for value in self.checks.values())

    @property
    def sound(self) -> bool:
        """Whether the installation runs as it should: ready, and no warning."""
        return all(value == "ok" for value in self.checks.values())

    def to_json(self, detail: bool = True) -> dict[str, Any]:
        """Without `detail` (what anyone may read over HTTP) an error names only
        the exception's type: its text may name hosts and users."""
        checks = self.checks if detail else {k: _short(v) for k, v in self.checks.items()}
        return {"status": "ready" if self.ready else "not ready", "checks": checks}


def _short(check: str) -> str:
    if not check.startswith(ERROR):
        return check
    return ERROR + check.removeprefix(ERROR).split(":", 1)[0]


def readiness(app: Flask) -> Readiness:
    found = Readiness()
    found.checks["database"] = _database()
    found.checks["migrations"] = (
        _migrations() if found.checks["database"] == "ok" else "unknown: no database"
    )
    found.checks["broker"] = _broker(app)
    if found.checks["broker"] == "ok":
        found.checks["queues"] = _queues(app)
    return found


def _database() -> str:
    try:
        with get_db().engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:  # any failure to answer is the answer
        return f"{ERROR}{type(exc).__name__}: {exc}"
    return "ok"


def _migrations() -> str:
    engine = get_db().engine
    head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    with engine.connect() as connection:
        # Read, not through Alembic's MigrationContext, which logs two INFO
        # lines each time it is made: every /readyz wrote them.
        current = (
            connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
            if inspect(connection).has_table(VERSION_TABLE)
            else None
        )
    if current == head:
        return "ok"
    return f"database at {current or 'no revision'}, code at {head}: run pbem db upgrade"


def _broker(app: Flask) -> str:
    try:
        with checked_broker(app.extensions["celery"]):
            pass
    except Exception as exc:  # kombu raises whatever its transport raises
        return f"{ERROR}{type(exc).__name__}: {exc}"
    return "ok"


# Who reads each queue (pbem.config.QUEUE_SETTINGS), for the advice.
READERS = {
    "PBEM_TASK_QUEUE": "pbem worker",
    "PBEM_BOT_QUEUE": "pbem worker --bots",
    "PBEM_NOTICE_QUEUE": "pbem worker --notices",
}


def _queues(app: Flask) -> str:
    """A queue with work that no running worker reads. Not an error of this
    process, which serves on: /readyz stays ready, `pbem check` fails."""
    celery = app.extensions["celery"]
    names = {app.config[setting]: setting for setting in READERS}
    try:
        unread = unread_queues(celery, queue_depths(celery, names))
    except Exception as exc:  # kombu raises whatever its transport raises
        return f"{ERROR}{type(exc).__name__}: {exc}"
    if not unread:
        return "ok"
    return WARNING + "; ".join(
        f"{count} tasks wait on {queue} and no worker reads it: start {READERS[names[queue]]}"
        for queue, count in unread.items()
    )


@bp.route("/healthz")
def healthz() -> Response:
    return jsonify(status="alive")


@bp.route("/readyz")
def readyz() -> tuple[Response, int]:
    found = readiness(current_app._get_current_object())  # type: ignore[attr-defined]  # Flask types current_app as the app, not its proxy
    if not found.ready:
        log.warning("not ready: %s", found.checks)
    return jsonify(found.to_json(detail=False)), 200 if found.ready else 503
