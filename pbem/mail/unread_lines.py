"""Lines of a mail that are neither commands nor moves the game can read.

Such a line after a readable first move is almost always a signature or a
piece of the quote that no pattern caught. Playing the moves read could
play half a turn; refusing the whole mail for a signature would be unfair.
So the player is asked: the answer lists the moves read and the lines not
understood, says whether those moves could be played now, and nothing is
played or stored until the player sends the turn again without the extra
lines. A first line the game cannot read is no such case: the mail goes in
as before and is refused with the engine's reason.
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

import engine
from pbem.i18n import current_language
from pbem.i18n.rules import describe_error
from pbem.models import Seat
from pbem.services.replay import engine_game
from pbem.services.submissions import preview

LISTED_LINES = 20


def unread_lines(seat: Seat, lines: list[str]) -> list[str]:
    """The lines after a readable first move that the game cannot read."""
    state = engine_game(seat.game).state

    def readable(line: str) -> bool:
        try:
            state.parse_syntax(seat.position, line)
        except engine.IllegalMove:
            return False
        return True

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
