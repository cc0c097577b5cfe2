"""Names and other text that go into mail headers (To, Subject): a control
character there, a line break above all, would make every mail that carries
it unsendable, or let it add headers of its own."""

from __future__ import annotations

import unicodedata

from flask_babel import gettext

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
