"""How a task that lost its database tries again, for every task that
touches it (the worker's and the mail's)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import OperationalError

DATABASE_RETRY: dict[str, Any] = {  # options of shared_task
    "autoretry_for": (OperationalError,),  # lost connection, lock timeout
    "max_retries": 5,
    "retry_backoff": 1,
    "retry_backoff_max": 30,
}
