"""A real HTTP receiver on loopback, allowed by the setting for the test
(its address and port only)."""

from __future__ import annotations

import pytest

from tests.server.notify.receiver import receiving


@pytest.fixture
def receiver(app, monkeypatch):
    with receiving() as running:
        monkeypatch.setitem(app.config, "PBEM_WEBHOOK_ALLOWED_NETWORKS", running.allowed)
        yield running
