"""Who waits on whom in PostgreSQL: the sessions a lock holder keeps waiting."""

from __future__ import annotations

from sqlalchemy import text


def blocked_by(engine, holder_pid: int) -> set[int]:
    """The PostgreSQL sessions waiting, directly or in a queue behind other
    waiters, for a lock that `holder_pid` holds."""
    with engine.connect() as connection:
        edges = connection.execute(
            text("SELECT pid, pg_blocking_pids(pid) FROM pg_stat_activity")
        ).all()
    blocked: set[int] = set()
    blockers = {holder_pid}
    while grown := {pid for pid, by in edges if blockers & set(by)} - blocked:
        blocked |= grown
        blockers |= grown
    return blocked
