"""Handing a finished message to the world: an SMTP server from PBEM_SMTP_URL,
or (embedded default) one .eml file per message in PBEM_MAIL_FOLDER plus a
line in the log."""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Mapping
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

log = logging.getLogger(__name__)

SMTP_TIMEOUT = 20


class PermanentFailure(Exception):
    """The server refused the message for good (5xx): retrying will not help."""


def deliver(message: EmailMessage, config: Mapping[str, Any], name: str) -> None:
    """Send `message`; OSError and SMTPException mean "try again later"."""
    url = config.get("PBEM_SMTP_URL")
    if url:
        _smtp(message, url)
    else:
        _folder(message, Path(config["PBEM_MAIL_FOLDER"]), name)


def _smtp(message: EmailMessage, url: str) -> None:
    """smtp://host:port (plain), smtp+starttls://..., smtps://...; user:password@ to log in."""
    parts = urlsplit(url)
    secure = parts.scheme == "smtps"
    port = parts.port or (465 if secure else 25)
    client_class = smtplib.SMTP_SSL if secure else smtplib.SMTP
    with client_class(parts.hostname or "localhost", port, timeout=SMTP_TIMEOUT) as client:
        if parts.scheme == "smtp+starttls":
            client.starttls()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        try:
            client.send_message(message)
        except smtplib.SMTPRecipientsRefused as exc:
            raise PermanentFailure(f"recipient refused: {exc.recipients}") from None
        except smtplib.SMTPResponseException as exc:
            if 500 <= exc.smtp_code < 600:
                raise PermanentFailure(f"{exc.smtp_code} {exc.smtp_error!r}") from None
            raise


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
