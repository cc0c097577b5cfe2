"""Text boards in the reader's language.

The engine writes a text board's lines as messages (`State.text_board`), so
the lines under the drawing are translated like the rules' refusals, from the
`rules` catalogues; the drawing itself (space names, board symbols) is the
same in every language. Needs no app: a mail task or a script may call it.
"""

from __future__ import annotations

from typing import Any

from engine.core.state import State
from pbem.i18n.catalogues import TRANSLATED
from pbem.i18n.rules import translate


def board_text(state: State[Any], seat: int | None, language: str | None) -> str:
    """`seat`'s text board (None: a spectator's) in `language`, English when
    the language is English or not one of ours."""
    board = state.text_board(seat)
    if language not in TRANSLATED:
        return board.text()
    return board.text(lambda message: translate(message, language))
