"""Lines of a mail that are neither commands nor moves the game can read.

Such a line after a readable first move is almost always a signature or a
piece of the quote that no pattern caught. Playing the moves read could
play half a turn; refusing the whole mail for a signature would be unfair.
So the player is asked: the answer lists the moves read and the lines not
understood, says whether those moves could be played now, and nothing is
played or stored until the player sends the turn again without the extra
lines. A first line the game cannot read is no such case: the mail goes in
as before and is refused with the engine's reason.

Some lines are plainly no move, though: a greeting first, a closing or the
sender's own name after the moves, a line drawn across. Those are set aside
before any of this, and the answer names them as not read; a line that
might be a mistyped move is never set aside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from email.utils import parseaddr

from flask_babel import gettext as _
from flask_babel import ngettext

import engine
from pbem.i18n import current_language
from pbem.i18n.rules import describe_error
from pbem.mail import reply_patterns as patterns
from pbem.models import GameStatus, Seat
from pbem.services.replay import engine_game
from pbem.services.submissions import preview

LISTED_LINES = 20
NAME_TRIMMINGS = " -—~.,!"  # "-- Ann", "Ann." sign as "Ann"


def _reader(seat: Seat) -> Callable[[str], bool]:
    """Whether the seat's game reads a line as a move (legal now or not)."""
    state = engine_game(seat.game).state

    def readable(line: str) -> bool:
        try:
            state.parse_syntax(seat.position, line)
        except engine.IllegalMove:
            return False
        return True

    return readable


def sender_names(seat: Seat, from_header: str) -> set[str]:
    """How the sender may sign: the player's name here, the name their mail
    client gives, and each word of both ("Ann" for "Ann Player")."""
    full = [seat.user.name if seat.user else "", parseaddr(from_header)[0]]
    words = [word for name in full for word in name.split() if len(word) > 1]
    return {name.strip(NAME_TRIMMINGS).casefold() for name in [*full, *words] if name.strip()}


def set_aside(seat: Seat, lines: list[str], names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The lines to read and those plainly no move: lines drawn across, a
    greeting before anything else, closings and the sender's name after
    everything else; only lines the game cannot read."""
    if not lines or seat.game.status != GameStatus.ACTIVE:
        return list(lines), []
    readable, names = _reader(seat), set(names)
    aside = {i for i, line in enumerate(lines) if patterns.is_rule(line) and not readable(line)}
    rest = [i for i in range(len(lines)) if i not in aside]
    if rest and patterns.is_greeting(lines[rest[0]]) and not readable(lines[rest[0]]):
        aside.add(rest.pop(0))
    for i in reversed(rest):
        line = lines[i]
        signed = line.strip(NAME_TRIMMINGS).casefold() in names or patterns.is_closing(line)
        if not signed or readable(line):
            break
        aside.add(i)
    kept = [line for i, line in enumerate(lines) if i not in aside]
    return kept, [lines[i] for i in sorted(aside)]


def not_read(aside: list[str]) -> str:
    """The answer's note on the lines set aside."""
    title = ngettext("This line was not read:", "These lines were not read:", len(aside))
    return title + "\n" + _listed(aside)


def unread_lines(seat: Seat, lines: list[str]) -> list[str]:
    """The lines after a readable first move that the game cannot read."""
    readable = _reader(seat)
    if not lines or not readable(lines[0]):
        return []
    return [line for line in lines[1:] if not readable(line)]


def question(seat: Seat, lines: list[str], unread: list[str]) -> str:
    """The answer that asks the player to send the turn again."""
    read = [line for line in lines if line not in unread]
    try:
        preview(seat, "\n".join(read))
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
