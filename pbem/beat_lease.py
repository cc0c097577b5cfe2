"""Exactly one beat per installation, even when two are started by mistake.

`pbem beat` takes a lease in the database before it starts Celery's beat and
renews it every third of PBEM_BEAT_LEASE_SECONDS. A second beat finds the lease
held and waits; when the holder dies its lease runs out and the waiting beat
takes over as it does, within a lease of the death. A holder that cannot renew
for half the lease (the database is gone) stops itself before anyone else could
take over, so two beats never run at once as long as the machines' clocks
agree to within half a lease.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import or_, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pbem.db import Database, rows_changed
from pbem.models import Lease, utcnow

log = logging.getLogger(__name__)

BEAT = "beat"
# A waiting process tries again this long after the lease's end, which it must
# have passed (the lease runs out once its end is in the past).
TAKEOVER_MARGIN = 0.01


def holder_name() -> str:
    """Which process holds it, for people reading the table or the log."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def take(database: Database, name: str, holder: str, seconds: int) -> bool:
    """Take or renew the lease for `seconds`; False while another holds it."""
    now = utcnow()
    until = now + timedelta(seconds=seconds)
    with database.session() as session:
        taken = session.execute(
            update(Lease)
            .where(Lease.name == name, or_(Lease.holder == holder, Lease.expires_at < now))
            .values(holder=holder, expires_at=until)
        )
        if rows_changed(taken):
            session.commit()
            return True
        if session.get(Lease, name) is not None:
            return False
        session.add(Lease(name=name, holder=holder, expires_at=until))
        try:
            session.commit()
        except IntegrityError:  # another took it first
            return False
        return True


def release(database: Database, name: str, holder: str) -> None:
    """Let a waiting process take over at once, as a clean stop does."""
    with database.session() as session:
        session.execute(
            update(Lease)
            .where(Lease.name == name, Lease.holder == holder)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
        session.commit()


def current_holder(database: Database, name: str) -> Lease | None:
    with database.session() as session:
        lease = session.get(Lease, name)
        if lease is not None:
            session.expunge(lease)
        return lease


class HeldLease:
    """The lease once taken: renewed by a thread until `stop()`, or until
    renewing fails for half the lease, when `on_lost` is called."""

    def __init__(
        self, database: Database, name: str, seconds: int, on_lost: Callable[[], None]
    ) -> None:
        self.database, self.name, self.seconds, self.on_lost = database, name, seconds, on_lost
        self.holder = holder_name()
        self._stopped = threading.Event()

    def wait_to_take(self) -> None:
        """Block until this process holds the lease."""
        told = False
        while not take(self.database, self.name, self.holder, self.seconds):
            held = current_holder(self.database, self.name)
            if not told:
                log.warning(
                    "another %s holds the lease (%s, until %s): waiting to take over",
                    self.name,
                    held.holder if held else "?",
                    held.expires_at if held else "?",
                )
                told = True
            self._stopped.wait(self._until_it_runs_out(held))
        log.info("%s lease taken by %s", self.name, self.holder)

    def _until_it_runs_out(self, held: Lease | None) -> float:
        """Seconds to wait before trying again: until the holder's lease runs
        out, so a dead holder is replaced then and not up to a third of a
        lease later; at most a third of a lease, as the holder renews."""
        left = (held.expires_at - utcnow()).total_seconds() if held is not None else 0
        return min(max(left, 0) + TAKEOVER_MARGIN, self.seconds / 3)

    def keep(self) -> None:
        threading.Thread(target=self._renew, name=f"{self.name}-lease", daemon=True).start()

    def _renew(self) -> None:
        renewed = utcnow()
        while not self._stopped.wait(self.seconds / 3):
            try:
                if not take(self.database, self.name, self.holder, self.seconds):
                    break  # it ran out and another took it
                renewed = utcnow()
                continue
            except SQLAlchemyError as exc:
                log.warning("%s lease not renewed: %s", self.name, exc)
            if utcnow() - renewed >= timedelta(seconds=self.seconds / 2):
                break
        else:
            return  # stopped
        log.error("%s lease lost: stopping so that only one runs", self.name)
        self.on_lost()

    def stop(self) -> None:
        self._stopped.set()
        try:
            release(self.database, self.name, self.holder)
        except SQLAlchemyError as exc:  # it runs out by itself
            log.warning("%s lease not released: %s", self.name, exc)
