"""Players' side of the mail tests: reading notifications and writing replies,
sent in through the rig's doors; and the rows the server keeps of them."""

from __future__ import annotations

import re
import smtplib
from collections.abc import Callable, Mapping
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from typing import Any

from imapclient import IMAPClient
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from pbem.mail import send
from pbem.models import Game, InboundMessage, InboundStatus, Outbox, OutboxStatus, User, utcnow
from pbem.services.notifications import SIGN_IN, queue_notice
from pbem.task_names import REQUEUE_OUTBOX
from tests.mail.servers import ImapServer
from tests.server.conftest import run_task, wait_for

LEGAL_TITLE = re.compile(r"^Your turn\. (Some of your|Your( \d+)?) legal moves?\b")


def text_of(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()


def sent_now(session: Session, outbox_id: int, config: Mapping[str, Any]) -> bool:
    """Play the worker for one row: True if its mail went out now."""
    return send.send_rows(session, [outbox_id], config) == 1


def mail_pictures(message: EmailMessage) -> list[bytes]:
    """The inline PNGs the HTML part shows, in its order (the board, then its panel)."""
    html = message.get_body(("html",))
    cids = re.findall(r"cid:([^'\"]+)", html.get_content()) if html else []
    parts = {
        str(part["Content-ID"]).strip("<>"): part.get_content()
        for part in message.walk()
        if part.get_content_type() == "image/png"
    }
    return [parts[cid] for cid in cids if cid in parts]


def board_png(message: EmailMessage) -> bytes | None:
    """The board's picture the HTML part shows, if the mail has one."""
    pictures = mail_pictures(message)
    return pictures[0] if pictures else None


def listed_moves(message: EmailMessage) -> list[str]:
    """The short list of legal moves a 'your turn' mail shows."""
    return listed_under(message, LEGAL_TITLE.match)


def listed_under(message: EmailMessage, is_title: Callable[[str], object]) -> list[str]:
    """The indented lines a mail lists under the first line `is_title` takes."""
    lines = text_of(message).splitlines()
    start = next(i for i, line in enumerate(lines) if is_title(line))
    moves = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        moves.append(line.strip())
    return moves


def reply(
    notification: EmailMessage, sender: str, body: str, quote: bool = True, **headers: str
) -> bytes:
    """A player's reply as a mail client writes it: new text on top, the
    original quoted below, threading headers kept."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = str(notification["Reply-To"])
    message["Subject"] = "Re: " + str(notification["Subject"])
    message["Message-ID"] = make_msgid(domain="players.test")
    message["In-Reply-To"] = str(notification["Message-ID"])
    message["References"] = f"{notification['References']} {notification['Message-ID']}"
    for name, value in headers.items():
        del message[name.replace("_", "-")]
        message[name.replace("_", "-")] = value
    text = body
    if quote:
        quoted = "\n".join("> " + line for line in text_of(notification).splitlines())
        text += f"\n\nOn Sunday, pbem wrote:\n{quoted}\n"
    message.set_content(text)
    return message.as_bytes(policy=policy.SMTP)


def send_smtp(raw: bytes, port: int, sender: str, recipient: str) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(sender, [recipient], raw)


def send_imap(raw: bytes, server: ImapServer) -> None:
    with IMAPClient("127.0.0.1", port=server.port, ssl=False, timeout=30) as client:
        client.login(server.user, server.password)
        client.append("INBOX", raw)


def processed(app, message_id: str, timeout: float = 30.0):
    """The stored inbound message once a worker has read it."""

    def done() -> InboundMessage | None:
        with app.extensions["pbem.db"].session() as fresh:
            row = fresh.scalar(
                select(InboundMessage).where(InboundMessage.message_id == message_id)
            )
            return row if row is not None and row.status == InboundStatus.DONE else None

    return wait_for(done, timeout, f"inbound {message_id} to be read")


def turn_mail(rig, game, user, ending: str = "your turn"):
    """`ending`: the subject's last words in the user's language."""
    return rig.capture.take(
        lambda m: (
            str(m["X-Pbem-Game"]) == game.public_id
            and user.email in str(m["To"])
            and str(m["Subject"]).endswith(ending)
        )
    )


def mail_to(rig, user_or_address, ending: str):
    """The next captured mail to a user (or an address) whose subject ends so."""
    address = getattr(user_or_address, "email", user_or_address)
    return rig.capture.take(
        lambda m: address in str(m["To"]) and str(m["Subject"]).endswith(ending)
    )


def submit_by_smtp(rig, raw: bytes, sender: str, to: str):
    """A mail sent to pbem's SMTP listener, once a worker has read it."""
    send_smtp(raw, rig.listener_port, sender, to)
    return processed(rig.app, message_id_of(raw))


def submit_by_http(rig, raw: bytes):
    """Through the HTTP door, which (unlike the SMTP door) cannot refuse a recipient."""
    answer = rig.app.test_client().post(
        "/mail/inbound", data=raw, headers={"Authorization": "Bearer inbound-secret"}
    )
    assert answer.status_code == 202, answer.get_data(as_text=True)
    return processed(rig.app, message_id_of(raw))


def message_id_of(raw: bytes) -> str:
    return str(BytesParser(policy=policy.default).parsebytes(raw)["Message-ID"])


def count(session, model, *where) -> int:
    """How many rows of `model` the database holds now where `where` holds."""
    session.expire_all()
    return session.scalar(select(func.count()).select_from(model).where(*where))


def unsent_row(session, **values) -> Outbox:
    """An outbox row stored without handing it to a worker (the test plays the worker)."""
    outbox_id = session.scalar(insert(Outbox).values(**values).returning(Outbox.id))
    session.commit()
    return session.get_one(Outbox, outbox_id)


def all_sent(session, game: Game) -> None:
    """Wait until every mail of the game due now has gone out (or was
    dropped, told by a later one)."""

    def sent() -> bool:
        session.expire_all()
        rows = session.scalars(select(Outbox).where(Outbox.game_id == game.id)).all()
        now = utcnow()
        return bool(rows) and all(
            r.status in (OutboxStatus.SENT, OutboxStatus.DROPPED)
            or (r.status == OutboxStatus.PENDING and r.not_before and r.not_before > now)
            for r in rows
        )

    wait_for(sent, timeout=30, what="the game's mail to go out")


def forged(sender: str, to: str) -> bytes:
    """A stranger's mail in `sender`'s name, holding a move."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "hello"
    message["Message-ID"] = make_msgid(domain="spam.test")
    message.set_content("tile 0,0 0,-1 1,-1")
    return message.as_bytes()


def queue_sign_in(session: Session, user: User, link: str) -> Outbox:
    """A sign-in link's mail, queued as the app queues it: handed to the
    worker once the session commits."""
    return queue_notice(session, SIGN_IN, {"link": link}, recipient=user)


def to(user, subject_end: str = "") -> Callable[[EmailMessage], bool]:
    """Mail to `user` whose subject ends so (the rig's capture holds every test's mail)."""
    return lambda m: user.email in str(m["To"]) and str(m["Subject"]).endswith(subject_end)


def held_for(session: Session, user: User, game: Game) -> list[Outbox]:
    """The outbox rows of the game for the user, oldest first, as stored now."""
    session.expire_all()
    rows = select(Outbox).where(Outbox.recipient_id == user.id, Outbox.game_id == game.id)
    return list(session.scalars(rows.order_by(Outbox.id)))


def release(rig: Any) -> None:
    """Run the beat's outbox sweep now."""
    run_task(rig.app, REQUEUE_OUTBOX)
