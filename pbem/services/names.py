"""Names and other text that go into mail headers (To, Subject): a control
character there, a line break above all, would make every mail that carries
it unsendable, or let it add headers of its own.

Whatever sets the name of a user, a seat or a league (a service, a command,
a test) is checked here: the check listens to the attribute itself, and the
services package imports this module, so no writer can forget it while the
tables (pbem.models) stay free of words meant for people."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask_babel import gettext
from sqlalchemy import event

from pbem.models import League, Seat, User
from pbem.services.errors import Invalid

NAME_LENGTH = 100
# Control characters (tab, line breaks, NUL ...) and the Unicode line and paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Zl", "Zp"}


def refuse_control_characters(text: str, what: str | None = None) -> str:
    """`text` unchanged, or Invalid naming the first character a header cannot carry."""
    for character in text:
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            raise Invalid(
                gettext(
                    "%(what)s may not contain control characters such as line breaks "
                    "(found %(character)s)",
                    what=what or gettext("a name"),
                    character=ascii(character),
                )
            )
    return text


def checked_name(name: str) -> str:
    """A player's name as typed, trimmed: 1 to NAME_LENGTH characters a header can carry."""
    name = name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise Invalid(gettext("choose a name of 1 to %(most)s characters", most=NAME_LENGTH))
    return refuse_control_characters(name)


@event.listens_for(User.name, "set", retval=True)
@event.listens_for(Seat.name, "set", retval=True)
@event.listens_for(League.name, "set", retval=True)
def _header_safe_name(_target: Any, name: str, _old: Any, _initiator: Any) -> str:
    """Names go into mail headers and subjects: whatever sets one, a line break is refused."""
    return refuse_control_characters(name)
