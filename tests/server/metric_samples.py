"""Reading /metrics as Prometheus does: every sample of the exposition by
name and labels, one series or the sum over several."""

from __future__ import annotations

from flask import Flask
from prometheus_client.parser import text_string_to_metric_families


def parsed(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition by (name, sorted labels); parsing it at
    all shows Prometheus can read it."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float | None:
    """The sample of `name` with exactly `labels`, if there is one."""
    return samples.get((name, tuple(sorted(labels.items()))))


def total(samples: dict, name: str, **labels: str) -> float:
    """The sum over every series of `name` having `labels` (and any others)."""
    wanted = set(labels.items())
    return sum(v for (n, lbls), v in samples.items() if n == name and wanted <= set(lbls))


def scrape(app: Flask) -> dict:
    """The app's /metrics as loopback reads it, parsed."""
    response = app.test_client().get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert response.status_code == 200, response.data
    assert response.content_type.startswith("text/plain; version=0.0.4")
    return parsed(response.get_data(as_text=True))
