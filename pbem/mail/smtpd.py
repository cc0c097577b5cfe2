"""The SMTP/LMTP door (aiosmtpd): for a host whose Postfix hands mail on.

Only the addresses of seats (`play+TOKEN@...` with a token some seat has) are
accepted at RCPT time: mail to any other address is refused (550) while the
sending server is connected, so no answer goes to a sender that may be
forged (backscatter); Postfix in front asks the same question (deploy/postfix).
A message over PBEM_MAIL_MAX_BYTES is refused during DATA (552), so the
sending server tells its author. Anything accepted is stored before we answer 250.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from flask import Flask

from pbem.db import EXTENSION
from pbem.mail.inbound import is_seat_address, receive

log = logging.getLogger(__name__)


class InboundHandler:
    """aiosmtpd handler: stores each message through the inbound pipeline."""

    def __init__(self, app: Flask, channel: str = "smtp") -> None:
        self.app = app
        self.channel = channel
        self.localpart = app.config["PBEM_MAIL_REPLY_LOCALPART"]

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        try:
            known = await asyncio.to_thread(self._is_seat_address, address)
        except Exception:
            log.exception("smtpd: could not look up a recipient")
            return "451 4.3.0 could not look up the address now; try again later"
        if not known:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def _is_seat_address(self, address: str) -> bool:
        database = self.app.extensions[EXTENSION]
        with self.app.app_context(), database.session() as session:
            return is_seat_address(session, address, self.localpart)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        try:
            await asyncio.to_thread(self._store, raw, envelope.mail_from, list(envelope.rcpt_tos))
        except Exception:
            log.exception("smtpd: could not store a message")
            return "451 4.3.0 could not store the message now; try again later"
        return "250 OK stored"

    def _store(self, raw: bytes, mail_from: str | None, rcpt_tos: list[str]) -> None:
        database = self.app.extensions[EXTENSION]
        with self.app.app_context(), database.session() as session:
            receive(
                session,
                self.app.extensions["celery"],
                raw,
                self.channel,
                envelope_from=(mail_from or "").strip("<>"),
                envelope_to=rcpt_tos,
            )


class _LMTPController(Controller):
    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


def controller(app: Flask, host: str, port: int, lmtp: bool = False) -> Controller:
    """A listener on host:port in a thread of its own (start() / stop())."""
    # aiosmtpd logs every command it reads at INFO, each sender's and
    # recipient's address with it: pbem's logs hold nobody's address.
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    handler = InboundHandler(app, "lmtp" if lmtp else "smtp")
    settings: dict[str, Any] = {"data_size_limit": app.config["PBEM_MAIL_MAX_BYTES"]}
    cls = _LMTPController if lmtp else Controller
    return cls(handler, hostname=host, port=port, **settings)
