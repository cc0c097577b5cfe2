"""Handing finished messages to the world: an SMTP server from PBEM_SMTP_URL,
or (embedded default) one .eml file per message in PBEM_MAIL_FOLDER plus a
line in the log.

A batch of messages goes through one SMTP connection: opened for the first,
kept for the rest, and opened once more if the server dropped it while it
was kept (servers close idle connections)."""

from __future__ import annotations

import contextlib
import logging
import smtplib
from collections.abc import Mapping
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

log = logging.getLogger(__name__)

SMTP_TIMEOUT = 20
SERVICE_CLOSING = 421  # the server is going away: the connection is lost, not the message


class PermanentFailure(Exception):
    """The server refused the message for good (5xx): retrying will not help."""


class ServerDown(Exception):
    """The SMTP server cannot be reached or keeps dropping the connection:
    every message after this one would fail the same way for now."""


class _ConnectionLost(Exception):
    """A connection that was open broke under a message."""


class Outgoing:
    """Where a batch's messages go, one `send` each; close it (or use it as a
    context manager) to say goodbye to the server.

    `send` raises PermanentFailure for a message refused for good, ServerDown
    when the server is gone, and OSError (SMTPException among them) when only
    this message failed for now (a 4xx answer, a file that cannot be written)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self._config = config
        self._client: smtplib.SMTP | None = None

    def __enter__(self) -> Outgoing:
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _value: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        self.close()

    def send(self, message: EmailMessage, name: str) -> None:
        url = self._config.get("PBEM_SMTP_URL")
        if not url:
            _folder(message, Path(self._config["PBEM_MAIL_FOLDER"]), name)
            return
        if self._client is not None:
            try:
                _send_on(self._client, message)
                return
            except _ConnectionLost:
                self._drop()  # dropped while kept open: one fresh connection
        self._client = _connect(url)
        try:
            _send_on(self._client, message)
        except _ConnectionLost as exc:
            self._drop()
            raise ServerDown(_reason(exc.__cause__)) from exc.__cause__

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(OSError):
                self._client.quit()
            self._drop()

    def _drop(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _connect(url: str) -> smtplib.SMTP:
    """smtp://host:port (plain), smtp+starttls://..., smtps://...; user:password@ to log in."""
    parts = urlsplit(url)
    secure = parts.scheme == "smtps"
    port = parts.port or (465 if secure else 25)
    client_class = smtplib.SMTP_SSL if secure else smtplib.SMTP
    try:
        client = client_class(parts.hostname or "localhost", port, timeout=SMTP_TIMEOUT)
    except OSError as exc:  # SMTPConnectError among them
        raise ServerDown(_reason(exc)) from exc
    try:
        if parts.scheme == "smtp+starttls":
            client.starttls()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
    except OSError as exc:
        client.close()
        raise ServerDown(_reason(exc)) from exc
    return client


def _reason(exc: BaseException | None) -> str:
    return f"{type(exc).__name__}: {exc}"


def _send_on(client: smtplib.SMTP, message: EmailMessage) -> None:
    try:
        client.send_message(message)
    except smtplib.SMTPRecipientsRefused as exc:
        raise PermanentFailure(f"recipient refused: {exc.recipients}") from None
    except smtplib.SMTPResponseException as exc:
        if exc.smtp_code == SERVICE_CLOSING:  # smtplib has closed the connection
            raise _ConnectionLost from exc
        if 500 <= exc.smtp_code < 600:
            raise PermanentFailure(f"{exc.smtp_code} {exc.smtp_error!r}") from None
        raise
    except (smtplib.SMTPServerDisconnected, ConnectionError, TimeoutError) as exc:
        raise _ConnectionLost from exc


def _folder(message: EmailMessage, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.eml"
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(bytes(message))
    temporary.replace(path)  # readers never see half a file
    body = message.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    log.info(
        "mail to %s: %s (%s)\n%s",
        parseaddr(str(message["To"]))[1],
        message["Subject"],
        path,
        text,
    )
