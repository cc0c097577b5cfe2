"""One pipeline for every door (IMAP poller, SMTP/LMTP listener, HTTP endpoint).

`receive` stores the raw message first, dropping a Message-ID seen before,
and hands it to a worker; `process` then reads it once:
loop guard (auto-replies and bounces are ignored) -> size -> the sender check
of our receiving host -> authentication (the seat token in the recipient
address and the seat's player in From) ->
the new text around the quote -> commands and moves (or, when lines no game
reads follow a move, a question and nothing played: see unread_lines; a
reply to a chat mail with neither command nor move is chat).
A stranger gets a polite refusal that says nothing about any game.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_babel.speaklater import LazyString
from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from pbem.db import rows_changed
from pbem.dispatch import send_tasks
from pbem.i18n import in_language
from pbem.mail import addresses
from pbem.mail.automatic import is_automatic
from pbem.mail.commands import Reading, carry_out, read_commands
from pbem.mail.reply_text import UnreadableBody, body_text, new_text
from pbem.mail.sender_check import failed_check
from pbem.mail.unread_lines import Judge, reads_a_move
from pbem.metrics import events
from pbem.models import InboundMessage, InboundStatus, Outbox, Seat, utcnow
from pbem.ratelimit import address_key, allow_refusal_answer
from pbem.services import notifications
from pbem.services.accounts import normalise_email, user_by_email
from pbem.services.errors import Invalid
from pbem.services.notifications import queue_notice
from pbem.task_names import PROCESS_INBOUND

log = logging.getLogger(__name__)

UNREADABLE = lazy_gettext(
    "We could not read the text of your mail (%(reason)s). "
    "Nothing was played. Please send it again as plain text in UTF-8."
)
SENDER_CHECK_FAILED = lazy_gettext(
    "Our mail server could not confirm that your message really came from %(sender)s "
    "(the SPF, DKIM or DMARC check of its domain failed). Send it again directly "
    "from that address, not through a forwarding service."
)
TOO_LARGE = lazy_gettext("Your message is too large. Send only text.")
SUSPENDED = lazy_gettext(
    "Your account is suspended: nothing you send is played. Ask the server's administrator."
)
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "To", "Cc")


def message_id_of(raw: bytes) -> str:
    """The Message-ID header, or one made from the bytes so a resent copy is still a duplicate."""
    try:
        headers = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        found = str(headers.get("Message-ID", "")).strip()
    except Exception:  # a header too broken to read is no Message-ID
        found = ""
    return found[:512] if found else f"<sha256.{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def store(
    session: Session,
    raw: bytes,
    channel: str,
    envelope_from: str | None = None,
    envelope_to: Iterable[str] = (),
) -> InboundMessage | None:
    """Keep the message as it came; None (nothing stored) for a Message-ID seen before."""
    message_id = message_id_of(raw)
    if session.scalar(select(InboundMessage.id).where(InboundMessage.message_id == message_id)):
        return None
    row = InboundMessage(
        message_id=message_id,
        raw=raw,
        channel=channel,
        envelope_from=envelope_from,
        envelope_to=list(envelope_to),
    )
    session.add(row)
    try:
        session.commit()
    except IntegrityError:  # the same message arrived through two doors at once
        session.rollback()
        return None
    return row


def receive(
    session: Session,
    celery: Any,
    raw: bytes,
    channel: str,
    envelope_from: str | None = None,
    envelope_to: Iterable[str] = (),
) -> InboundMessage | None:
    """Store, then hand to a worker; what every door calls."""
    row = store(session, raw, channel, envelope_from, envelope_to)
    if row is not None:
        send_tasks(celery, PROCESS_INBOUND, [row.id])
    return row


@dataclass
class Result:
    outcome: str
    detail: str = ""


def process(session: Session, inbound_id: int, config: Mapping[str, Any]) -> Result | None:
    """Read a stored message exactly once; commits. None if it was read before."""
    # The claiming UPDATE locks the row (SQLite: the database) until the commit.
    claimed = session.execute(
        update(InboundMessage)
        .where(InboundMessage.id == inbound_id, InboundMessage.status == InboundStatus.RECEIVED)
        .values(processed_at=utcnow())
    )
    if rows_changed(claimed) == 0:
        session.rollback()
        return None
    row = session.get_one(InboundMessage, inbound_id)
    result = _read_or_fail(session, row, config)
    row.status, row.outcome, row.detail = InboundStatus.DONE, result.outcome, result.detail
    door = row.channel
    session.commit()
    events.inbound_read(door, result.outcome)
    # The outcome only: its detail may be the player's own words, which name
    # people (the row keeps it, for the administrators' page).
    log.info("inbound %s (%s): %s", row.id, row.message_id, result.outcome)
    return result


def _read_or_fail(session: Session, row: InboundMessage, config: Mapping[str, Any]) -> Result:
    """Every mail ends with an outcome: a fault of ours on some mail undoes
    what reading it did and is kept as the outcome "failed" (logged), rather
    than leaving the mail to be read again and again. The database failing
    is not the mail's fault: that is raised, and the task is retried."""
    try:
        with session.begin_nested():
            return _read(session, row, config)
    except DBAPIError:
        raise
    except Exception as exc:
        log.exception("inbound %s (%s): reading it failed", row.id, row.message_id)
        return Result("failed", f"{type(exc).__name__}: {exc}"[:500])


def _read(session: Session, row: InboundMessage, config: Mapping[str, Any]) -> Result:
    raw = row.raw
    assert raw is not None  # forgotten only once read (pbem.mail.retention)
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
        if is_automatic(message, row.envelope_from):
            return Result("ignored", "automatic reply or bounce")
        sender = addresses.sender_address(message)
        normalise_email(sender)  # an address no player can have: no seat, no answer
    except (addresses.UnclearSender, Invalid) as exc:  # whom to answer is the doubt itself
        return Result("refused", f"unclear sender: {exc}")
    except Exception as exc:  # broken beyond reading: keep it stored, answer nobody
        return Result("unreadable", f"{type(exc).__name__}: {exc}")
    if len(raw) > config["PBEM_MAIL_MAX_BYTES"]:
        _refuse(session, sender, message, TOO_LARGE)
        return Result("refused", "too large")
    failed = failed_check(message, config["PBEM_MAIL_AUTHSERV_ID"], sender)
    if failed:
        _refuse(session, sender, message, SENDER_CHECK_FAILED, sender=sender)
        return Result("refused", f"sender check failed: {failed}")
    seat = authenticated_seat(session, row, message, sender, config)
    if seat is None:
        _refuse(session, sender, message)
        return Result("refused", "no seat for this address and sender")
    row.seat_id = seat.id
    assert seat.user is not None  # authenticated_seat finds a player's seat
    if seat.user.locked_out:
        _refuse(session, sender, message, SUSPENDED)
        return Result("refused", "account suspended")
    with in_language(seat.user.language if seat.user else None):  # the answer's
        return _read_seat_mail(session, row, message, seat, config)


def _read_seat_mail(
    session: Session,
    row: InboundMessage,
    message: EmailMessage,
    seat: Seat,
    config: Mapping[str, Any],
) -> Result:
    try:
        text = new_text(body_text(message))
    except Exception as exc:  # an unreadable body: say so, apply nothing
        reason = str(exc) if isinstance(exc, UnreadableBody) else _("its encoding is broken")
        _answer(session, seat, row, [str(UNREADABLE) % {"reason": reason}], board=False)
        return Result("unreadable", f"{type(exc).__name__}: {exc}")
    seen = addresses.seen_position(
        str(message.get("In-Reply-To", "")),
        str(message.get("References", "")),
        str(message.get("Subject", "")),
    )
    reading = read_commands(text, sender=str(message.get("From", "")))
    judge = Judge(seat)  # the game's position, built once for the whole mail
    if (
        text
        and not reading.commands
        and _answers_chat(session, seat, message)
        and not reads_a_move(judge, reading.moves)
    ):
        reading = Reading(commands=[("chat", text)], sender=reading.sender)
    answer = carry_out(session, judge, reading, seen, config)
    row.submission_id = answer.submission_id
    if answer.paragraphs:
        _answer(session, seat, row, answer.paragraphs, answer.board)
    return Result(answer.outcome, text[:200])


def _answers_chat(session: Session, seat: Seat, message: EmailMessage) -> bool:
    """Whether the mail replies to a chat mail this seat was sent: then what
    it says is chat for the other players, not moves gone wrong, unless it
    holds a command or a move the game reads (a reply to the thread's latest
    mail, which may be a chat mail)."""
    row_id = addresses.answered_row(
        str(message.get("In-Reply-To", "")), str(message.get("References", ""))
    )
    row = session.get(Outbox, row_id) if row_id is not None else None
    return (
        row is not None
        and row.kind == notifications.CHAT
        and (row.recipient_id, row.game_id) == (seat.user_id, seat.game_id)
    )


def _answer(
    session: Session, seat: Seat, row: InboundMessage, paragraphs: list[str], board: bool
) -> None:
    assert seat.user is not None  # the seat's player wrote the mail
    payload = {
        "game": seat.game.public_id,
        "seat": seat.position,
        "text": "\n\n".join(paragraphs),
        "board": board,
        "in_reply_to": row.message_id,
        "subject": "answer",
    }
    queue_notice(
        session, notifications.MAIL_ANSWER, payload, recipient=seat.user, game_id=seat.game_id
    )


def is_seat_address(session: Session, address: str, localpart: str) -> bool:
    """Whether `address` is some seat's (`play+TOKEN@...`): what the SMTP door
    asks at RCPT time, so mail to any other address is refused, not answered."""
    token = addresses.token_from_address(address, localpart)
    return (
        token is not None and session.scalar(select(Seat.id).where(Seat.token == token)) is not None
    )


def authenticated_seat(
    session: Session,
    row: InboundMessage,
    message: EmailMessage,
    sender: str,
    config: Mapping[str, Any],
) -> Seat | None:
    """The seat whose token the mail was sent to, if From is that seat's player."""
    localpart = config["PBEM_MAIL_REPLY_LOCALPART"]
    candidates = list(row.envelope_to)
    for name in RECIPIENT_HEADERS:
        for value in message.get_all(name, []):
            candidates.extend(a.addr_spec for a in getattr(value, "addresses", ()))
    tokens = {t for t in (addresses.token_from_address(a, localpart) for a in candidates) if t}
    for token in tokens:
        seat = session.scalar(select(Seat).where(Seat.token == token))
        if (
            seat is not None
            and seat.user is not None
            and not seat.has_left
            and seat.user.email.lower() == sender
        ):
            return seat
    return None


def _refuse(
    session: Session,
    address: str,
    message: EmailMessage,
    reason: LazyString | None = None,
    **params: str,
) -> None:
    """Answer a refused mail, at most PBEM_REFUSAL_LIMIT times per sender and
    PBEM_REFUSAL_LIMIT_TOTAL in all: the From of a stranger's mail may be
    forged, and a flood of such mail must not become a flood of answers to
    whoever it names. A sender who plays here is answered in their language."""
    if not allow_refusal_answer(address):
        log.info(
            "refusal to %s not sent: too many answered recently"
            " (PBEM_REFUSAL_LIMIT, PBEM_REFUSAL_LIMIT_TOTAL)",
            address_key(address),  # the logs hold nobody's address
        )
        return
    known = user_by_email(session, address)
    language = known.language if known is not None else None
    with in_language(language):
        said = str(reason) % params if reason is not None else ""
    payload = {"reason": said, "in_reply_to": str(message.get("Message-ID", ""))}
    queue_notice(session, notifications.REFUSAL, payload, to_address=address, language=language)


def received_since(session: Session, older_than: Any) -> list[int]:
    """Stored messages no worker has read yet: their task message was lost."""
    return list(
        session.scalars(
            select(InboundMessage.id)
            .where(
                InboundMessage.status == InboundStatus.RECEIVED,
                InboundMessage.received_at < older_than,
            )
            .order_by(InboundMessage.id)
        )
    )
