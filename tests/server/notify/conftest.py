"""A real HTTP receiver on loopback, allowed by the setting for the test."""

from __future__ import annotations

import pytest

from tests.server.notify.receiver import receiving


@pytest.fixture
def receiver(app, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8")
    with receiving() as running:
        yield running
