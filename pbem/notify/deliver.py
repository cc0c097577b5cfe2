"""Posting deliveries, in the worker. A delivery is leased before it is
posted, so two workers never post it at once; an answer other than 2xx (a
redirect included: none is followed), no answer, or an address that is no
longer allowed is a failed attempt, tried again after a growing wait until
PBEM_WEBHOOK_RETRY_HOURS have passed since it was made. A hook that fails
PBEM_WEBHOOK_MAX_FAILURES attempts in a row is switched off and its owner
told by mail; a hook posts at most PBEM_WEBHOOK_PER_MINUTE deliveries a
minute, the rest wait. Its owner sees the class of a failure ("timed out",
"HTTP 503"), never what the receiver answered; the log has the details."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from pbem.db import rows_changed
from pbem.models import DeliveryStatus, Webhook, WebhookDelivery, utcnow
from pbem.notify import outbound, receivers
from pbem.notify.messages import request_for
from pbem.notify.queue import TEST
from pbem.services.notifications import notify_webhook_off

log = logging.getLogger(__name__)

FIRST_WAIT_SECONDS = 30
LONGEST_WAIT_SECONDS = 3600


def _free(now: datetime) -> ColumnElement[bool]:
    return or_(
        and_(
            WebhookDelivery.status == DeliveryStatus.PENDING,
            WebhookDelivery.next_attempt_at <= now,
        ),
        and_(
            WebhookDelivery.status == DeliveryStatus.SENDING,
            WebhookDelivery.claimed_until < now,
        ),
    )


def lease(config: Mapping[str, Any], requests: int = 1) -> timedelta:
    """How long a sender holds what it sends: longer than its `requests`
    can last (each ends at PBEM_WEBHOOK_TIMEOUT_SECONDS), so no second
    sender takes it while the first may still be sending."""
    return timedelta(seconds=requests * float(config["PBEM_WEBHOOK_TIMEOUT_SECONDS"]) + 60)


def deliver(session: Session, delivery_id: int, config: Mapping[str, Any]) -> str | None:
    """Post the delivery if it is due and free; its status after, or None."""
    now = utcnow()
    claimed = session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id, _free(now))
        .values(status=DeliveryStatus.SENDING, claimed_until=now + lease(config))
        .execution_options(synchronize_session=False)
    )
    session.commit()
    if rows_changed(claimed) == 0:
        return None
    delivery = session.get_one(WebhookDelivery, delivery_id, populate_existing=True)
    hook = session.get_one(Webhook, delivery.webhook_id, populate_existing=True)
    if hook.disabled_at is not None and delivery.event != TEST:
        return _finish(session, delivery, DeliveryStatus.FAILED, "the webhook is switched off")
    if _sent_last_minute(session, hook, now) >= config["PBEM_WEBHOOK_PER_MINUTE"]:
        return _later(session, delivery, now + timedelta(minutes=1))
    request = request_for(session, delivery, int(now.timestamp()))
    session.commit()  # nothing is held open in the database while the receiver takes its time
    try:
        with receivers.turn_at(session, request.url, lease(config), config):
            delivery.attempts += 1
            answer = outbound.send(
                request.url, request.body, request.headers, config, request.method
            )
    except receivers.Held as held:
        return _later(session, delivery, held.until)
    except (outbound.Refused, OSError) as exc:
        log.warning("webhook delivery %s: %s: %s", delivery.id, type(exc).__name__, exc)
        return _failed(session, delivery, outbound.failure(exc), config, now)
    if not 200 <= answer.status < 300:
        log.warning("webhook delivery %s: HTTP %s: %r", delivery.id, answer.status, answer.text)
        return _failed(session, delivery, outbound.failure(answer.status), config, now, answer)
    if not _hook_kept(session, hook):
        return None
    delivery.answer_status = answer.status
    hook.failures, hook.disabled_at = 0, None
    delivery.sent_at = now
    return _finish(session, delivery, DeliveryStatus.SENT, None)


def _hook_kept(session: Session, hook: Webhook) -> bool:
    """Lock the hook's row before its delivery's, in the order an account's
    deletion takes them (pbem.accounts.deletion), so the two never wait on
    each other; False, and nothing written, if the hook was removed while
    its receiver answered."""
    kept = session.scalar(select(Webhook.id).where(Webhook.id == hook.id).with_for_update())
    if kept is None:
        session.rollback()
        log.info("webhook delivery: hook %s was removed meanwhile", hook.id)
    return kept is not None


def _later(session: Session, delivery: WebhookDelivery, at: datetime) -> str:
    """Back to waiting, without an attempt counted: not now, but at `at`."""
    delivery.status, delivery.claimed_until, delivery.next_attempt_at = (
        DeliveryStatus.PENDING,
        None,
        at,
    )
    session.commit()
    return delivery.status


def _sent_last_minute(session: Session, hook: Webhook, now: datetime) -> int:
    return session.execute(
        select(func.count()).where(
            WebhookDelivery.webhook_id == hook.id,
            WebhookDelivery.sent_at > now - timedelta(minutes=1),
        )
    ).scalar_one()


def _finish(session: Session, delivery: WebhookDelivery, status: str, error: str | None) -> str:
    delivery.status, delivery.claimed_until, delivery.last_error = status, None, error
    session.commit()
    return status


def retry_wait(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min ... at most an hour between attempts."""
    return timedelta(seconds=min(FIRST_WAIT_SECONDS * 2 ** (attempts - 1), LONGEST_WAIT_SECONDS))


def _failed(
    session: Session,
    delivery: WebhookDelivery,
    error: str,
    config: Mapping[str, Any],
    now: datetime,
    answer: outbound.Answer | None = None,
) -> str | None:
    hook = delivery.webhook
    if not _hook_kept(session, hook):
        return None
    if answer is not None:
        delivery.answer_status = answer.status
    session.execute(  # counted in the database: two workers may fail at once
        update(Webhook)
        .where(Webhook.id == hook.id)
        .values(failures=Webhook.failures + 1)
        .execution_options(synchronize_session=False)
    )
    session.refresh(hook)
    log.warning("webhook %s delivery %s failed: %s", hook.id, delivery.id, error)
    if hook.failures >= config["PBEM_WEBHOOK_MAX_FAILURES"] and hook.disabled_at is None:
        _switch_off(session, hook, error, now)
    retry_at = now + retry_wait(delivery.attempts)
    too_late = retry_at > delivery.created_at + timedelta(hours=config["PBEM_WEBHOOK_RETRY_HOURS"])
    if too_late or hook.disabled_at is not None:
        return _finish(session, delivery, DeliveryStatus.FAILED, error)
    delivery.next_attempt_at = retry_at
    return _finish(session, delivery, DeliveryStatus.PENDING, error)


def _switch_off(session: Session, hook: Webhook, error: str, now: datetime) -> None:
    """No more attempts: its waiting deliveries fail, its owner hears why."""
    hook.disabled_at = now
    session.execute(
        update(WebhookDelivery)
        .where(
            WebhookDelivery.webhook_id == hook.id,
            WebhookDelivery.status == DeliveryStatus.PENDING,
        )
        .values(status=DeliveryStatus.FAILED, last_error="the webhook was switched off")
        .execution_options(synchronize_session=False)
    )
    notify_webhook_off(session, hook.user_id, hook.url, hook.failures, error)
    log.error("webhook %s switched off after %s failures: %s", hook.id, hook.failures, error)


def due_deliveries(session: Session) -> list[int]:
    """Deliveries whose wait is over (retries, the end of quiet hours, a rate
    limit) or whose worker died with them: the beat's sweep hands them on."""
    return list(
        session.scalars(
            select(WebhookDelivery.id).where(_free(utcnow())).order_by(WebhookDelivery.id)
        )
    )
