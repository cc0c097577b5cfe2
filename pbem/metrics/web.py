"""`GET /metrics` of the web processes: their events, and the installation's
state from the database and the broker (pbem.metrics.state)."""

from __future__ import annotations

from flask import Blueprint, current_app, request
from werkzeug.wrappers import Response

bp = Blueprint("metrics", __name__)


@bp.route("/metrics")
def metrics() -> Response:
    # Imported here: prometheus_client may be imported only once `pbem web`
    # has chosen its mode (pbem.metrics.processes).
    from pbem.metrics.exposition import metrics_response
    from pbem.metrics.state import StateCollector

    app = current_app._get_current_object()  # type: ignore[attr-defined]  # Flask types current_app as the app, not its proxy
    return metrics_response(request.environ, app.config["PBEM_METRICS_TOKEN"], StateCollector(app))
