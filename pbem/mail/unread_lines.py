"""Lines of a mail that are neither commands nor moves the game can read.

A line is a mistyped move only when it looks like one: it begins with a
move's or a command's word in any of the three languages, or names a space
of the board (what the game reads as a move looks like one too). Anything
else before the first such line or after the last is prose, a greeting, a
closing ("Bisous", "Good luck!", "Hodně štěstí"), a signature without its
"-- " ("Lucie Martin", "Club de Java de Paris"): it is set aside, and the
answer names it as not read. So are lines drawn across, and a greeting
first or a closing or the sender's own name last even where one looks like
a move (a name "Tour") but the game cannot read it.

What remains may still hold lines the game cannot read after a readable
first move: prose between two moves (a piece of the quote that no pattern
caught, with moves in it) or a mistyped move. Playing the moves read could
play half a turn, and refusing the whole mail would be unfair, so the player
is asked: the answer lists the moves read and the lines not understood,
says whether those moves could be played now, and nothing is played or
stored until the player sends the turn again. A first line that looks like
a move but that the game cannot read goes in as before and is refused with
the engine's reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from email.utils import parseaddr
from functools import cached_property

from flask_babel import gettext as _
from flask_babel import ngettext

import engine
from pbem.i18n import current_language
from pbem.i18n.command_words import command_named
from pbem.i18n.rules import describe_error
from pbem.mail import reply_patterns as patterns
from pbem.models import GameStatus, Seat
from pbem.services.replay import engine_game
from pbem.services.submissions import preview

LISTED_LINES = 20
NAME_TRIMMINGS = " -—~.,!"  # "-- Ann", "Ann." sign as "Ann"
FIRST_WORD = re.compile(r"[^\s,;:.!?]+")  # "Allez," begins with "Allez"


class Judge:
    """What the seat's game makes of a mail's lines, from its position now.
    The position is built once per mail, when a line first needs it, and
    serves every reading of the mail's lines and the question's trial."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    @cached_property
    def played(self) -> engine.Game:
        return engine_game(self.seat.game)

    def readable(self, line: str) -> bool:
        """Whether the game reads the line as a move (legal now or not)."""
        try:
            self.played.state.parse_syntax(self.seat.position, line)
        except engine.IllegalMove:
            return False
        return True

    def looks_like_a_move(self, line: str) -> bool:
        """A move, perhaps mistyped: its first word opens a move or names a
        command, or it names a space of the board."""
        first = FIRST_WORD.match(line.strip())
        word = first.group() if first else ""
        return (
            self.played.state.opens_move(word)
            or command_named(word) is not None
            or patterns.names_a_place(line)
            or self.readable(line)
        )


def sender_names(seat: Seat, from_header: str) -> set[str]:
    """How the sender may sign: the player's name here, the name their mail
    client gives, and each word of both ("Ann" for "Ann Player")."""
    full = [seat.user.name if seat.user else "", parseaddr(from_header)[0]]
    words = [word for name in full for word in name.split() if len(word) > 1]
    return {name.strip(NAME_TRIMMINGS).casefold() for name in [*full, *words] if name.strip()}


def set_aside(judge: Judge, lines: list[str], names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The lines to read and those plainly no move: lines drawn across, and
    before the first line that looks like a move or after the last, prose, a
    greeting first, closings and the sender's name last; only lines the game
    cannot read."""
    if not lines or judge.seat.game.status != GameStatus.ACTIVE:
        return list(lines), []
    names = set(names)

    def signed(line: str) -> bool:
        return line.strip(NAME_TRIMMINGS).casefold() in names or patterns.is_closing(line)

    aside = {
        i for i, line in enumerate(lines) if patterns.is_rule(line) and not judge.readable(line)
    }
    rest = [i for i in range(len(lines)) if i not in aside]
    while rest and _prose(judge, lines[rest[0]], patterns.is_greeting):
        aside.add(rest.pop(0))
    while rest and _prose(judge, lines[rest[-1]], signed):
        aside.add(rest.pop())
    kept = [line for i, line in enumerate(lines) if i not in aside]
    return kept, [lines[i] for i in sorted(aside)]


def _prose(judge: Judge, line: str, plainly_no_move: Callable[[str], bool]) -> bool:
    """Whether a line around the moves is no move: it does not look like
    one, or it is a greeting or a signature that the game cannot read."""
    if not judge.looks_like_a_move(line):
        return True
    return plainly_no_move(line) and not judge.readable(line)


def not_read(aside: list[str]) -> str:
    """The answer's note on the lines set aside."""
    title = ngettext("This line was not read:", "These lines were not read:", len(aside))
    return title + "\n" + _listed(aside)


def unread_lines(judge: Judge, lines: list[str]) -> list[str]:
    """The lines after a readable first move that the game cannot read."""
    if not lines or not judge.readable(lines[0]):
        return []
    return [line for line in lines[1:] if not judge.readable(line)]


def reads_a_move(judge: Judge, lines: list[str]) -> bool:
    """Whether the seat's game reads any of the lines as a move."""
    return any(map(judge.readable, lines))


def question(judge: Judge, lines: list[str], unread: list[str]) -> str:
    """The answer that asks the player to send the turn again."""
    read = [line for line in lines if line not in unread]
    try:
        preview(judge.seat, "\n".join(read), judge.played)
        verdict = _("These moves can be played now: to play them, reply with only them.")
    except engine.IllegalMove as exc:
        verdict = _(
            "These moves could not be played now either: %(reason)s.",
            reason=describe_error(exc, current_language()),
        )
    return "\n\n".join(
        [
            _(
                "Your mail holds lines that are neither moves nor commands (a signature or a "
                "part of the quoted mail?), so nothing was played: not a part of your turn "
                "either."
            ),
            _("Moves read:") + "\n" + _listed(read),
            _("Lines not understood:") + "\n" + _listed(unread),
            _("%(verdict)s One move per line, nothing else.", verdict=verdict),
        ]
    )


def _listed(lines: list[str]) -> str:
    """Indented, at most LISTED_LINES of them: a whole leaked quote need not come back."""
    shown = [f"  {line}" for line in lines[:LISTED_LINES]]
    hidden = len(lines) - LISTED_LINES
    if hidden > 0:
        shown.append("  " + ngettext("(and %(num)d more line)", "(and %(num)d more lines)", hidden))
    return "\n".join(shown)
