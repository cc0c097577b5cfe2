"""The addresses and ids that tie a mail to a seat and a position.

Reply-To is `play+<seat token>@<domain>`: the token is the seat's secret, so
only the seat's player (who got it by mail) can write to it. Our Message-IDs
carry the game, the seat and the number of moves played when the mail was
written, so a reply says which position its author saw (the stale guard).
"""

from __future__ import annotations

import re
from email import errors
from email.headerregistry import Address
from email.message import EmailMessage

MESSAGE_ID = re.compile(
    r"<pbem\.(?P<game>[A-Za-z0-9_-]+)\.(?P<seat>\d+)\.(?P<ply>\d+)"
    r"\.(?P<unique>[A-Za-z0-9_-]+)@[^>]+>"
)
# "move 5" as the subjects say it in English, French and Czech (compose).
SUBJECT_MOVE = re.compile(r"\b(?:move|coup|tah) (\d+)\b", re.IGNORECASE)


def reply_address(localpart: str, token: str, domain: str) -> str:
    return f"{localpart}+{token}@{domain}"


def token_from_address(address: str, localpart: str) -> str | None:
    """The seat token in `play+TOKEN@domain`; None for any other address."""
    local, _, _domain = address.strip().strip("<>").rpartition("@")
    base, plus, token = local.partition("+")
    if not plus or base.lower() != localpart.lower() or not token:
        return None
    return token


def thread_root_id(game: str, seat: int, domain: str) -> str:
    """The id every mail of one game to one seat refers to, so clients thread them."""
    return f"<pbem.{game}.{seat}.0.thread@{domain}>"


def message_id(game: str, seat: int, ply: int, unique: str, domain: str) -> str:
    return f"<pbem.{game}.{seat}.{ply}.{unique}@{domain}>"


def seen_position(in_reply_to: str, references: str, subject: str) -> int | None:
    """How many moves had been played in the mail being answered, if it says."""
    for header in (in_reply_to, references):
        plies = [int(m["ply"]) for m in MESSAGE_ID.finditer(header or "") if m["ply"] != "0"]
        if plies:
            return max(plies)
    found = SUBJECT_MOVE.search(subject or "")
    return int(found.group(1)) - 1 if found else None


def answered_row(in_reply_to: str, references: str) -> int | None:
    """The outbox row whose mail a reply answers: the one its parent's
    Message-ID names (In-Reply-To, else the last of References, which
    some clients keep alone), if that is a game mail of ours."""
    parent = in_reply_to.strip() or (references.split() or [""])[-1]
    found = MESSAGE_ID.fullmatch(parent)
    if found is None or not found["unique"].isdigit():
        return None
    return int(found["unique"])


class UnclearSender(ValueError):
    """From does not name exactly one mailbox beyond doubt."""


def sender_address(message: EmailMessage) -> str:
    """The one address of From, lower-cased, as the standard library reads it
    strictly (RFC 5322): the address in angle brackets when there is one.

    Lenient readers differ on headers such as `ann@example.org <eve@evil.example>`
    (one reads Ann, a mail client shows Eve), so a header the parser had to
    repair, or one naming several mailboxes or a group, is refused rather
    than guessed: the sender decides whose seat the mail may play. Raises
    UnclearSender saying why.
    """
    headers = message.get_all("From", [])
    if len(headers) != 1:
        raise UnclearSender(f"{len(headers)} From headers")
    header = headers[0]
    # Raw 8-bit bytes (a name in UTF-8, as some clients send it) leave no doubt
    # about the mailbox; whatever the parser had to repair does.
    repaired = [d for d in header.defects if not isinstance(d, errors.UndecodableBytesDefect)]
    if repaired:
        raise UnclearSender(f"From is malformed: {repaired[0]}")
    if len(header.groups) != 1 or header.groups[0].display_name is not None:
        raise UnclearSender("From names several mailboxes or a group")
    if len(header.addresses) != 1:
        raise UnclearSender("From names no mailbox")
    address = header.addresses[0].addr_spec
    if not address.isascii():  # raw 8-bit bytes in the mailbox itself, read as escapes
        raise UnclearSender("From's address is not plain ASCII, as a look-alike's would be")
    return address.lower()


def domain_of(address: str) -> str:
    """The domain of an address (or of a bare domain), lower-cased."""
    return address.rpartition("@")[2].strip().strip(".").lower()


def formatted(name: str, address: str) -> str:
    user, _, domain = address.rpartition("@")
    return str(Address(display_name=name, username=user, domain=domain))
