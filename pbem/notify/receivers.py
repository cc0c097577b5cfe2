"""Taking turns at a receiver's host: at most PBEM_RECEIVER_CONCURRENCY
requests in flight to one host at a time, over every sender process, and a
host whose requests time out PBEM_RECEIVER_TIMEOUTS times in a row is left
alone for a growing while (at most an hour), for every hook and device that
names it. Without these, a user with six hooks to a receiver that answers a
byte at a time had every sender waiting on it.

The state is in the database (receiver_slots, receiver_hosts), so it holds
across processes and machines; each change commits at once, and nothing is
open in the database while the request is in flight."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pbem.db import rows_changed
from pbem.models import ReceiverHost, ReceiverSlot, utcnow

log = logging.getLogger(__name__)

FIRST_BACK_OFF_SECONDS = 60
LONGEST_BACK_OFF_SECONDS = 3600
BUSY_WAIT_SECONDS = 10  # a request that found every slot taken is tried again after this


class Held(Exception):
    """Not now: the host is backed off, or has as many requests in flight as
    it may; try again at `until` (no attempt was made)."""

    def __init__(self, host: str, until: datetime, why: str) -> None:
        super().__init__(f"{host}: {why} until {until:%H:%M:%S}")
        self.until = until


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()[:255]


@contextmanager
def turn_at(
    session: Session, url: str, lease: timedelta, config: Mapping[str, Any]
) -> Iterator[None]:
    """A slot of the URL's host for the request made inside; Held if the host
    is backed off or busy. A request that times out counts towards backing
    the host off; any other end, an answer or a failure, clears the count."""
    host, now = host_of(url), utcnow()
    backed_off = session.scalar(
        select(ReceiverHost.backed_off_until).where(ReceiverHost.host == host)
    )
    if backed_off is not None and backed_off > now:
        session.commit()
        raise Held(host, backed_off, "backed off after timing out")
    slot = _take_slot(session, host, now, now + lease, config["PBEM_RECEIVER_CONCURRENCY"])
    if slot is None:
        raise Held(host, now + timedelta(seconds=BUSY_WAIT_SECONDS), "busy")
    try:
        yield
    except TimeoutError:
        _timed_out(session, host, config["PBEM_RECEIVER_TIMEOUTS"])
        raise
    else:
        _answered(session, host)
    finally:
        session.execute(
            update(ReceiverSlot)
            .where(ReceiverSlot.host == host, ReceiverSlot.slot == slot)
            .values(claimed_until=None)
        )
        session.commit()


def _take_slot(
    session: Session, host: str, now: datetime, until: datetime, bound: int
) -> int | None:
    """The first free slot of the host, claimed until `until` and committed."""
    _make_slots(session, host, bound)
    for slot in range(bound):
        taken = session.execute(
            update(ReceiverSlot)
            .where(
                ReceiverSlot.host == host,
                ReceiverSlot.slot == slot,
                or_(ReceiverSlot.claimed_until.is_(None), ReceiverSlot.claimed_until < now),
            )
            .values(claimed_until=until)
            .execution_options(synchronize_session=False)
        )
        session.commit()  # each try its own short transaction: no row stays locked
        if rows_changed(taken):
            return slot
    return None


def _make_slots(session: Session, host: str, bound: int) -> None:
    made = set(session.scalars(select(ReceiverSlot.slot).where(ReceiverSlot.host == host)))
    for slot in set(range(bound)) - made:
        try:
            with session.begin_nested():
                session.add(ReceiverSlot(host=host, slot=slot))
        except IntegrityError:
            pass  # another sender made it meanwhile
    session.commit()


def _host_row(session: Session, host: str) -> ReceiverHost:
    row = session.get(ReceiverHost, host, with_for_update=True)
    if row is None:
        try:
            with session.begin_nested():
                session.add(ReceiverHost(host=host, timeouts=0))
        except IntegrityError:
            pass  # another sender made it meanwhile
        row = session.get_one(ReceiverHost, host, with_for_update=True, populate_existing=True)
    return row


def _timed_out(session: Session, host: str, limit: int) -> None:
    row = _host_row(session, host)
    row.timeouts += 1
    if row.timeouts >= limit:
        wait = FIRST_BACK_OFF_SECONDS * 2 ** (row.timeouts - limit)
        row.backed_off_until = utcnow() + timedelta(seconds=min(wait, LONGEST_BACK_OFF_SECONDS))
        log.warning(
            "receiver %s timed out %s times in a row: backed off until %s",
            host,
            row.timeouts,
            row.backed_off_until,
        )
    session.commit()


def _answered(session: Session, host: str) -> None:
    session.execute(
        update(ReceiverHost)
        .where(ReceiverHost.host == host, ReceiverHost.timeouts > 0)
        .values(timeouts=0, backed_off_until=None)
        .execution_options(synchronize_session=False)
    )
    session.commit()
