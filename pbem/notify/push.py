"""Browser notifications (Web Push with VAPID): a player's devices opt in
on the settings page; "your turn" is stacked (one notification, replaced,
naming how many games wait) and each decision gets one warning before its
deadline. A notice is a row written in the change's transaction, sent by
the worker after the commit: encrypted for each device's keys (RFC 8291,
pywebpush's encoder), signed with the server's VAPID key (RFC 8292, py-vapid)
and posted through pbem.notify.outbound like any webhook. A device whose
push service answers 404 or 410 has gone: its subscription is removed."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext
from py_vapid import Vapid02, b64urlencode, jwt
from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from pbem import signals
from pbem.db import rows_changed
from pbem.i18n import in_language
from pbem.leagues.seasons import named
from pbem.models import Game, PushNotice, PushSubscription, User, utcnow
from pbem.notify import outbound, receivers
from pbem.notify.deliver import lease, retry_wait
from pbem.notify.hooks import check_address
from pbem.services.deadlines import out_of_quiet_hours
from pbem.services.errors import Invalid
from pbem.services.game_lists import seats_to_act
from pbem.services.links import absolute_url
from pbem.services.notice_choices import tells
from pbem.task_names import SEND_PUSH

log = logging.getLogger(__name__)

YOUR_TURN = "your_turn"
DEADLINE = "deadline"
GONE = (404, 410)
TTL_SECONDS = 86400
VAPID_SECONDS = 12 * 3600  # a signature's life: RFC 8292 allows 24 hours at most


def init_app(app: Flask) -> None:
    signals.record(app, signals.turn_started, _turn_started)
    signals.record(app, signals.deadline_near, _deadline_near)


def push_on(app: Flask) -> bool:
    """Push needs the server's keys and a subject the push services may contact."""
    return bool(app.config.get("PBEM_VAPID_PRIVATE_KEY") and app.config.get("PBEM_VAPID_SUBJECT"))


def new_keys() -> tuple[str, str]:
    """(private, public) VAPID keys as settings hold them: the private key's
    32 bytes and the public point (what browsers take as applicationServerKey),
    both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64urlencode(private), _public_point(key.public_key())


def _public_point(key: ec.EllipticCurvePublicKey) -> str:
    return b64urlencode(
        key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )


def subscribe(
    session: Session,
    user: User,
    endpoint: str,
    p256dh: str,
    auth: str,
    config: Mapping[str, Any],
) -> None:
    """Keep a device's subscription (a device that subscribes again replaces
    its keys and counts as new). Its address is checked as a webhook's is, and
    a user keeps PBEM_PUSH_MAX_DEVICES devices at most, the newest: one notice
    opens that many requests, no more."""
    if urlsplit(endpoint).scheme != "https" or len(endpoint) > 2000:
        raise Invalid(_("not a push service's address"))
    check_address(endpoint, config)
    row = session.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
    if row is None:
        row = PushSubscription(endpoint=endpoint)
        session.add(row)
    row.user_id, row.p256dh, row.auth = user.id, p256dh[:200], auth[:100]
    row.created_at = utcnow()
    session.flush()
    oldest = (
        select(PushSubscription)
        .where(PushSubscription.user_id == user.id)
        .order_by(PushSubscription.created_at.desc(), PushSubscription.id.desc())
        .offset(config["PBEM_PUSH_MAX_DEVICES"])
    )
    for gone in session.scalars(oldest).all():
        log.info("push subscription %s of user %s: one device too many, removed", gone.id, user.id)
        session.delete(gone)


def unsubscribe(session: Session, user: User, endpoint: str) -> None:
    row = session.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
    if row is not None and row.user_id == user.id:
        session.delete(row)


def _subscribed(session: Session, user_ids: list[int]) -> set[int]:
    found = select(PushSubscription.user_id).where(PushSubscription.user_id.in_(user_ids))
    return set(session.scalars(found))


def _queue(session: Session, user: User, game_id: int, kind: str) -> None:
    now = utcnow()
    notice = PushNotice(
        user_id=user.id,
        game_id=game_id,
        kind=kind,
        status="pending",
        next_attempt_at=out_of_quiet_hours(now, user),
    )
    session.add(notice)
    session.flush()
    if notice.next_attempt_at <= now:
        signals.announce(session, signals.stored_for_worker, task=SEND_PUSH, ids=[notice.id])


def _turn_started(
    app: Flask, session: Session, game_id: int, positions: list[int], **_about: object
) -> None:
    if not push_on(app):
        return
    game = session.get_one(Game, game_id)
    seats = [s for s in game.seats if s.position in positions and s.user is not None]
    devices = _subscribed(session, [s.user_id for s in seats if s.user_id is not None])
    for seat in seats:
        user = seat.user
        assert user is not None
        if (
            user.id in devices
            and user.digest_hour is None
            and tells(session, user.id, game_id, "push")
        ):
            _queue(session, user, game_id, YOUR_TURN)


def _deadline_near(
    app: Flask, session: Session, game_id: int, position: int, **_about: object
) -> None:
    if not push_on(app):
        return
    game = session.get_one(Game, game_id)
    seat = next(s for s in game.seats if s.position == position)
    user = seat.user
    if (
        user is not None
        and _subscribed(session, [user.id])
        and tells(session, user.id, game_id, "push")
    ):
        _queue(session, user, game_id, DEADLINE)


def _free(now: Any) -> Any:
    return or_(
        and_(PushNotice.status == "pending", PushNotice.next_attempt_at <= now),
        and_(PushNotice.status == "sending", PushNotice.claimed_until < now),
    )


def due_notices(session: Session) -> list[int]:
    return list(session.scalars(select(PushNotice.id).where(_free(utcnow()))))


def send_notice(session: Session, notice_id: int, config: Mapping[str, Any]) -> str | None:
    """Send the notice to each of its player's devices; its status after, or
    None if it was not due or is taken by another worker. Nothing is open in
    the database while the push services are asked."""
    now = utcnow()
    devices = session.scalars(
        select(PushSubscription)
        .join(PushNotice, PushNotice.user_id == PushSubscription.user_id)
        .where(PushNotice.id == notice_id)
        .order_by(PushSubscription.id)
    ).all()
    claimed = session.execute(
        update(PushNotice)
        .where(PushNotice.id == notice_id, _free(now))
        .values(status="sending", claimed_until=now + lease(config, max(len(devices), 1)))
        .execution_options(synchronize_session=False)
    )
    session.commit()
    if rows_changed(claimed) == 0:
        return None
    notice = session.get_one(PushNotice, notice_id, populate_existing=True)
    notice.attempts += 1
    user = session.get_one(User, notice.user_id)
    with in_language(user.language):
        message = _message(session, notice, user)
    session.commit()
    errors, retry_at = [], now + retry_wait(notice.attempts)
    for device in devices:
        try:
            with receivers.turn_at(session, device.endpoint, lease(config), config):
                status = _send_to(device, message, config)
        except receivers.Held as held:
            errors.append(str(held))
            retry_at = max(retry_at, held.until)
            continue
        except Exception as exc:
            # Whatever goes wrong with one device (keys no browser made, an
            # address no longer allowed, no answer, a library's own exception)
            # is a failed attempt, never a notice left half sent: the other
            # devices are tried. Administrators read it on /admin.
            log.warning("push to device %s failed: %s: %s", device.id, type(exc).__name__, exc)
            errors.append(f"{type(exc).__name__}: {exc}")
            continue
        if status in GONE:
            log.info("push subscription %s has gone (%s): removed", device.id, status)
            session.delete(device)
        elif not 200 <= status < 300:
            errors.append(outbound.failure(status))
    last_try = notice.attempts >= config["PBEM_PUSH_MAX_ATTEMPTS"]
    if errors and not last_try and retry_at < notice.created_at + timedelta(days=1):
        notice.status, notice.next_attempt_at = "pending", retry_at
    else:
        notice.status = "failed" if errors else "sent"
    notice.claimed_until, notice.last_error = None, "; ".join(errors) or None
    if notice.status == "failed":
        notice.last_error = f"gave up after {notice.attempts} attempts: {notice.last_error}"
        log.error("push notice %s given up: %s", notice.id, notice.last_error)
    session.commit()
    return notice.status


def _message(session: Session, notice: PushNotice, user: User) -> dict[str, Any]:
    """What the service worker shows. "Your turn" has one tag, so each replaces
    the last on the device, and counts every game waiting when it is sent."""
    game = session.get_one(Game, notice.game_id)
    link = absolute_url("play.game_page", game_id=game.public_id)
    if notice.kind == DEADLINE:
        title = _("Your deadline is near in %(game)s", game=named(game))
        tag = f"pbem-deadline-{game.public_id}"
        return {"title": title, "body": title, "url": link, "tag": tag}
    waiting = [seat.game for seat in seats_to_act(session, user)] or [game]
    if len(waiting) == 1:
        title = _("Your turn in %(game)s", game=named(waiting[0]))
    else:
        title = ngettext("Your turn in %(num)d game", "Your turn in %(num)d games", len(waiting))
    body = ", ".join(named(g) for g in waiting[:5])
    url = link if len(waiting) == 1 else absolute_url("lobby.home")
    return {"title": title, "body": body, "url": url, "tag": "pbem-your-turn"}


def _send_to(device: PushSubscription, message: dict[str, Any], config: Mapping[str, Any]) -> int:
    """The push service's answer (its status) to the message for one device."""
    # Imported here: pywebpush brings aiohttp, a third of a second at every
    # start of a process that never pushes (the web, the commands).
    from pywebpush import WebPusher

    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    body = WebPusher(info).encode(json.dumps(message).encode())["body"]
    headers = {
        **_vapid(device.endpoint, config),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
    }
    return outbound.send(device.endpoint, body, headers, config).status


def _vapid(endpoint: str, config: Mapping[str, Any]) -> dict[str, str]:
    """RFC 8292's Authorization for the push service of `endpoint`: a JWT
    naming its origin (`aud`), signed with py_vapid's signer. Not through
    Vapid02.sign, whose check of `aud` (^https?://[^/:]+(:\\d+)?$) refuses
    an origin with an IPv6 literal (https://[2001:db8::1]) by raising
    VapidException, though RFC 8292 asks for exactly that origin."""
    parts = urlsplit(endpoint)
    key = Vapid02.from_string(config["PBEM_VAPID_PRIVATE_KEY"])
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + VAPID_SECONDS,
        "sub": config["PBEM_VAPID_SUBJECT"],
    }
    token = jwt.sign(claims, key.private_key)
    return {"Authorization": f"vapid t={token},k={_public_point(key.public_key)}"}
