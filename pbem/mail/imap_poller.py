"""The IMAP door: fetch unseen mail from a club's existing mailbox.

Run by Celery beat every PBEM_IMAP_POLL_SECONDS. A message is flagged \\Seen
only after it is stored, so a crash in between fetches it again, and the
Message-ID check drops the second copy.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from flask import Flask
from imapclient import IMAPClient

from pbem.db import EXTENSION
from pbem.mail.inbound import receive

log = logging.getLogger(__name__)

BATCH = 50
TIMEOUT = 30


@dataclass(frozen=True)
class Mailbox:
    host: str
    port: int
    ssl: bool
    starttls: bool
    user: str
    password: str
    folder: str


def mailbox(url: str) -> Mailbox:
    """imaps://user:password@host:993/INBOX, imap+starttls://..., or imap:// (loopback only)."""
    parts = urlsplit(url)
    if parts.scheme not in ("imap", "imaps", "imap+starttls"):
        raise ValueError(
            f"PBEM_IMAP_URL must start imap://, imaps:// or imap+starttls://, not {url!r}"
        )
    ssl = parts.scheme == "imaps"
    return Mailbox(
        host=parts.hostname or "localhost",
        port=parts.port or (993 if ssl else 143),
        ssl=ssl,
        starttls=parts.scheme == "imap+starttls",
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        folder=unquote(parts.path.lstrip("/")) or "INBOX",
    )


def poll(app: Flask) -> int:
    """Store every unseen message of the mailbox; the number stored (duplicates not counted)."""
    url = app.config.get("PBEM_IMAP_URL")
    if not url:
        return 0
    box = mailbox(url)
    database = app.extensions[EXTENSION]
    celery = app.extensions["celery"]
    stored = 0
    with IMAPClient(box.host, port=box.port, ssl=box.ssl, timeout=TIMEOUT) as client:
        if box.starttls:
            client.starttls()
        client.login(box.user, box.password)
        client.select_folder(box.folder)
        uids = client.search(["UNSEEN"])
        for start in range(0, len(uids), BATCH):
            batch = uids[start : start + BATCH]
            for uid, data in client.fetch(batch, ["BODY.PEEK[]"]).items():
                raw = data.get(b"BODY[]")
                if raw is None:
                    continue
                with database.session() as session:
                    if receive(session, celery, raw, "imap") is not None:
                        stored += 1
                client.add_flags([uid], [b"\\Seen"])
    if stored:
        log.info("imap: stored %d new message(s) from %s", stored, box.folder)
    return stored
