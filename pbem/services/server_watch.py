"""What an administrator watches on the administrators' page: mail that
failed or is held, browser notifications given up, turns no worker has
judged, and what was refused lately; and a failed mail sent again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.db import rows_changed
from pbem.dispatch import send_batches
from pbem.models import (
    Game,
    InboundMessage,
    Outbox,
    OutboxStatus,
    PushNotice,
    Submission,
    SubmissionStatus,
    User,
)
from pbem.task_names import SEND_MAILS

LISTED = 50  # rows of each list: the newest


@dataclass(frozen=True)
class GivenUpPush:
    """A browser notification given up after its attempts, and whose it was."""

    notice: PushNotice
    email: str
    game: str  # the game's public id


@dataclass(frozen=True)
class Watch:
    failed_mail: list[Outbox]
    held_mail: list[Outbox]
    given_up_push: list[GivenUpPush]
    stuck_submissions: list[Submission]
    refused_mail: list[InboundMessage]
    refused_turns: list[Submission]


def watch(session: Session, now: datetime, stale_seconds: int) -> Watch:
    """The page's lists, newest first. A turn is stuck once it has waited
    longer than PBEM_STALE_SUBMISSION_SECONDS for a worker."""
    return Watch(
        failed_mail=_newest(session, Outbox, Outbox.status == OutboxStatus.FAILED),
        held_mail=_newest(
            session, Outbox, Outbox.status == OutboxStatus.PENDING, Outbox.not_before > now
        ),
        given_up_push=_given_up_push(session),
        stuck_submissions=_newest(
            session,
            Submission,
            Submission.status == SubmissionStatus.PENDING,
            Submission.created_at < now - timedelta(seconds=stale_seconds),
        ),
        refused_mail=_newest(session, InboundMessage, InboundMessage.outcome == "refused"),
        refused_turns=_newest(session, Submission, Submission.status == SubmissionStatus.REJECTED),
    )


def _newest(session: Session, model: Any, *conditions: Any) -> list[Any]:
    return list(
        session.scalars(select(model).where(*conditions).order_by(model.id.desc()).limit(LISTED))
    )


def _given_up_push(session: Session) -> list[GivenUpPush]:
    rows = session.execute(
        select(PushNotice, User.email, Game.public_id)
        .join(User, User.id == PushNotice.user_id)
        .join(Game, Game.id == PushNotice.game_id)
        .where(PushNotice.status == "failed")
        .order_by(PushNotice.id.desc())
        .limit(LISTED)
    )
    return [GivenUpPush(notice, email, game) for notice, email, game in rows]


def resend(session: Session, outbox_id: int) -> bool:
    """Put a failed mail back in the queue with all its attempts; whether it
    was failed. Only a failed row changes, so a second press (or two
    administrators at once) sends it once. The caller commits, then hands it on."""
    changed = session.execute(
        update(Outbox)
        .where(Outbox.id == outbox_id, Outbox.status == OutboxStatus.FAILED)
        .values(
            status=OutboxStatus.PENDING,
            attempts=0,
            last_error=None,
            claimed_until=None,
            not_before=None,
        )
        .execution_options(synchronize_session=False)
    )
    return rows_changed(changed) == 1


def hand_on_mail(celery: Any, outbox_id: int) -> None:
    """To a sender now, after the commit; the sweep would, later."""
    send_batches(celery, SEND_MAILS, [outbox_id], 1)
