"""`GET /metrics` of a `pbem worker`, on PBEM_WORKER_METRICS_BIND: the events
of its task processes (judging, mail, timeouts), which happen on the worker's
host and which no web host can see."""

from __future__ import annotations

import threading

from werkzeug.serving import BaseWSGIServer, make_server
from werkzeug.wrappers import Request, Response

from pbem.metrics.exposition import metrics_response


def serve(bind: str, token: str | None) -> BaseWSGIServer:
    """Answer scrapes from a daemon thread of this process until it ends."""
    host, _, port = bind.rpartition(":")

    @Request.application
    def answer(request: Request) -> Response:
        if request.path != "/metrics":
            return Response("Only /metrics is served here.\n", 404, content_type="text/plain")
        return metrics_response(request.environ, token)

    server = make_server(host or "127.0.0.1", int(port), answer, threaded=True)
    threading.Thread(target=server.serve_forever, name="pbem-metrics", daemon=True).start()
    return server
