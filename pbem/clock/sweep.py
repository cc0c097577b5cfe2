"""One sweep of the clocks: due reminders, due digests, due timeouts, then
league rounds due by date and weekly league digests.
The beat runs it every PBEM_SWEEP_SECONDS and `pbem sweep` runs it once; it
is safe to run twice at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from pbem.clock.digests import send_digests
from pbem.clock.reminders import send_reminders
from pbem.clock.timeouts import apply_timeouts
from pbem.leagues.digest import send_league_digests
from pbem.leagues.seasons import due_rounds
from pbem.models import utcnow


@dataclass
class SweepReport:
    reminders: int = 0
    digests: int = 0
    timeouts: int = 0
    league_digests: int = 0

    def __str__(self) -> str:
        return (
            f"{self.reminders} reminders sent, {self.digests} digests sent,"
            f" {self.league_digests} league digests sent, {self.timeouts} timeouts applied"
        )


def sweep(session: Session, now: datetime | None = None) -> SweepReport:
    """Run one sweep; commits. What it submits is handed to the workers as
    each step commits (pbem.dispatch)."""
    now = now or utcnow()
    report = SweepReport(reminders=send_reminders(session, now))
    report.digests = send_digests(session, now)
    report.timeouts = apply_timeouts(session, now)
    due_rounds(session, now)
    report.league_digests = send_league_digests(session, now)
    return report
