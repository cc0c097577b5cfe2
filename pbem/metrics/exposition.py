"""The text a scrape reads: this process tree's events, plus whatever else
the caller collects (the web's database and broker state)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import REGISTRY
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from werkzeug.wrappers import Response

from pbem.metrics import events
from pbem.metrics.access import refusal
from pbem.metrics.processes import in_multiprocess_mode


class _Together(Collector):
    def __init__(self, collectors: Iterable[Any]) -> None:
        self.collectors = list(collectors)

    def collect(self) -> Iterator[Any]:
        for collector in self.collectors:
            yield from collector.collect()


def metrics_response(environ: dict[str, Any], token: str | None, *extra: Collector) -> Response:
    """The metrics, or a refusal for a client that may not read them (pbem.metrics.access)."""
    refused = refusal(environ, token)
    if refused is not None:
        status, why = refused
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
        return Response(why + "\n", status, headers, content_type="text/plain")
    events.declare()  # every family is listed, even before its first event here
    own = MultiProcessCollector(None) if in_multiprocess_mode() else REGISTRY
    # The format the scraper asks for: Prometheus' text, or OpenMetrics.
    encode, content_type = choose_encoder(environ.get("HTTP_ACCEPT", ""))
    return Response(encode(_Together([own, *extra])), content_type=content_type)
