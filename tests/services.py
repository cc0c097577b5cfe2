"""Where the tests find PostgreSQL and Redis: deploy/test-services.sh starts
them there when nothing answers."""

from __future__ import annotations

import os

POSTGRES_URL = os.environ.get(
    "PBEM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("PBEM_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
