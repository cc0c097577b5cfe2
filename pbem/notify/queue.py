"""Writing deliveries: one row per hook and event, in the transaction of the
change it tells of; once that commits the rows due now go to the worker
(pbem.signals.stored_for_worker), the others to the beat's sweep when due."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from pbem import signals
from pbem.models import Webhook, WebhookDelivery, utcnow
from pbem.task_names import SEND_WEBHOOK

YOUR_TURN = "your_turn"
MOVE = "move"
GAME_ENDED = "game_ended"
STANDINGS_CHANGED = "standings_changed"
ROUND_STARTED = "round_started"
TEST = "test"


def queue_delivery(
    session: Session,
    hook: Webhook,
    event: str,
    payload: dict[str, Any],
    not_before: datetime | None = None,
) -> WebhookDelivery:
    """`not_before`: held until then (the end of the owner's quiet hours)."""
    now = utcnow()
    delivery = WebhookDelivery(
        webhook_id=hook.id, event=event, payload=payload, next_attempt_at=not_before or now
    )
    session.add(delivery)
    session.flush()
    if delivery.next_attempt_at <= now:
        signals.announce(session, signals.stored_for_worker, task=SEND_WEBHOOK, ids=[delivery.id])
    return delivery
