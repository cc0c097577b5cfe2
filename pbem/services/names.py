"""Names and other text that go into mail headers (To, Subject): a control
character there, a line break above all, would make every mail that carries
it unsendable, or let it add headers of its own. Nor may a name mislead: no
bidi controls (U+202E shows "Ann" written backwards as something else), and
no name made of invisible characters only.

Whatever sets the name of a user, a seat or a league (a service, a command,
a test) is checked here: the check listens to the attribute itself, and the
services package imports this module, so no writer can forget it while the
tables (pbem.models) stay free of words meant for people."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from sqlalchemy import event

from pbem.models import Game, League, Seat, User
from pbem.services.errors import Invalid

NAME_LENGTH = 100
# Control characters (tab, line breaks, NUL ...) and the Unicode line and paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Zl", "Zp"}
# Unicode's Bidi_Control characters: marks, embeddings, overrides and isolates
# that reorder the text around them.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Format characters (zero-width spaces and joiners, the byte order mark),
# spaces, combining marks, and the letters that fonts draw as blanks.
INVISIBLE_CATEGORIES = {"Cf", "Zs", "Mn", "Me"}
BLANK_LETTERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def refuse_control_characters(text: str, what: str | None = None) -> str:
    """`text` unchanged, or Invalid naming the first character a header cannot carry."""
    for character in text:
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            raise Invalid(
                gettext(
                    "%(what)s may not contain control characters such as line breaks "
                    "(found %(character)s)",
                    **_found(character, what),
                )
            )
        if character in BIDI_CONTROLS:
            raise Invalid(
                gettext(
                    "%(what)s may not contain characters that reorder the text around them"
                    " (found %(character)s)",
                    **_found(character, what),
                )
            )
    return text


def _found(character: str, what: str | None) -> dict[str, str]:
    return {"what": what or gettext("a name"), "character": ascii(character)}


def is_invisible(text: str) -> bool:
    """Whether nothing of `text` would show on a page: empty, spaces, or only
    characters drawn as nothing (U+200B, U+FEFF, U+3164 ...)."""
    return all(unicodedata.category(c) in INVISIBLE_CATEGORIES or c in BLANK_LETTERS for c in text)


def checked_name(name: str) -> str:
    """A player's name as typed, trimmed: 1 to NAME_LENGTH characters a header can carry."""
    name = name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise Invalid(gettext("choose a name of 1 to %(most)s characters", most=NAME_LENGTH))
    refuse_control_characters(name)
    if is_invisible(name):
        raise Invalid(
            gettext("choose a name that shows: %(name)s has no visible character", name=ascii(name))
        )
    return name


@event.listens_for(User.name, "set", retval=True)
@event.listens_for(Seat.name, "set", retval=True)
@event.listens_for(League.name, "set", retval=True)
def _header_safe_name(_target: Any, name: str, _old: Any, _initiator: Any) -> str:
    """Names go into mail headers and subjects: whatever sets one, a line break is refused."""
    return refuse_control_characters(name)


def name_key(name: str) -> str:
    """What a name looks like to a reader: compatibility forms folded (NFKC),
    case folded, invisible format characters dropped, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(c for c in folded if unicodedata.category(c) != "Cf").split())


# A deleted account's name, stored in English and shown in the reader's language.
FORMER_PLAYER = "former player %(number)s"


def former_player(user_id: int) -> str:
    """The name a deleted account leaves in records: it identifies nobody."""
    return FORMER_PLAYER % {"number": user_id}


def player_name(name: str, user: User | None) -> str:
    """A name stored for a player (a seat's, a league place's) as a reader
    sees it: a deleted account's is a former player, in the reader's language."""
    if user is not None and user.deleted_at is not None:
        return gettext("former player %(number)s", number=user.id)  # FORMER_PLAYER
    return name


def read_names(game: Game) -> list[str]:
    """The game's seats by name in seat order, as the reader sees them: a
    deleted account's is a former player in their language (the record, and
    so the engine's view, keeps it in English)."""
    return [player_name(seat.name or "", seat.user) for seat in game.seats]


def as_read(game: Game, view: Mapping[str, Any]) -> dict[str, Any]:
    """An engine's view of `game` naming its seats as the reader sees them."""
    return {**view, "seats": read_names(game)}


def shown_name(seat: Seat) -> str:
    """The seat's name as pages and the API show it: when another player at the
    table goes by a name that looks the same, each gets their player number
    (the one in their profile's address, /players/N), so two Anns differ; a
    deleted account's seat is a former player, in the reader's language."""
    if seat.user_id is None or not seat.name:
        return seat.name or ""
    if seat.user is not None and seat.user.deleted_at is not None:
        return player_name(seat.name, seat.user)
    key = name_key(seat.name)
    players = {
        other.user_id
        for other in seat.game.seats
        if other.user_id is not None and other.name and name_key(other.name) == key
    }
    if len(players) < 2:
        return seat.name
    return gettext("%(name)s (player no. %(number)s)", name=seat.name, number=seat.user_id)
