"""One sweep of the clocks: due reminders, due digests, then due timeouts.
The beat runs it every PBEM_SWEEP_SECONDS and `pbem sweep` runs it once; it
is safe to run twice at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from pbem.clock.digests import send_digests
from pbem.clock.reminders import send_reminders
from pbem.clock.timeouts import apply_timeouts
from pbem.models import utcnow


@dataclass
class SweepReport:
    reminders: int = 0
    digests: int = 0
    timeouts: int = 0
    submissions: list[int] = field(default_factory=list)  # to hand to a worker

    def __str__(self) -> str:
        return (
            f"{self.reminders} reminders sent, {self.digests} digests sent,"
            f" {self.timeouts} timeouts applied"
        )


def sweep(session: Session, now: datetime | None = None) -> SweepReport:
    """Run one sweep; commits. The caller hands `submissions` to the workers."""
    now = now or utcnow()
    report = SweepReport(reminders=send_reminders(session, now))
    report.digests = send_digests(session, now)
    report.timeouts, report.submissions = apply_timeouts(session, now)
    return report
