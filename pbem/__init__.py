"""The pbem turn server: `create_app()` builds the Flask app with its database,
Celery, JSON API and pages; mail and picture blueprints plug in beside them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.loading import collector_held

with collector_held():
    from flask import Flask

    from pbem import (
        api,
        browser_protections,
        db,
        dispatch,
        health,
        i18n,
        logs,
        lost_connections,
        mail,
        notify,
        nul_bytes,
        ratelimit,
        web,
    )
    from pbem.config import Config, config_from_env
    from pbem.leagues import seasons
    from pbem.metrics import events as metrics_events
    from pbem.metrics import web as metrics_web
    from pbem.web.common import me
    from worker.celery_app import celery_init_app


def create_app(config: Config | type[Config] | Mapping[str, Any] | None = None) -> Flask:
    """`config`: a Config (class or instance) to read the environment with, or
    a mapping of settings laid over the environment's (what tests pass)."""
    app = Flask(__name__, instance_path=os.environ.get("PBEM_INSTANCE_PATH") or None)
    if isinstance(config, type):
        config = config()
    source = config if isinstance(config, Config) else config_from_env()
    app.config.update(source.settings(app.instance_path))
    if isinstance(config, Mapping):
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = source.default_secret_key(Path(app.instance_path))
    logs.init_app(app)
    # Larger request bodies are refused with 413 before anything reads them;
    # the HTTP mail door allows PBEM_MAIL_MAX_BYTES for itself.
    app.config["MAX_CONTENT_LENGTH"] = app.config["PBEM_MAX_REQUEST_BYTES"]

    db.init_app(app)
    lost_connections.init_app(app)
    dispatch.init_app(app)
    seasons.init_app(app)
    metrics_events.init_app(app)
    notify.init_app(app)
    i18n.init_app(app, reader=me)
    celery_init_app(app)
    api.init_app(app)
    mail.init_app(app)
    web.init_app(app)
    app.register_blueprint(health.bp)
    app.register_blueprint(metrics_web.bp)
    ratelimit.init_app(app)
    nul_bytes.init_app(app)
    browser_protections.init_app(app)
    return app
