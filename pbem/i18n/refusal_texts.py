"""The server's own refusals of a submission, registered with the engine's
messages so they are stored and translated like the rules' (by id)."""

from __future__ import annotations

from engine.core.message_texts import TURN_ORDER
from engine.core.messages import define, words

(SIZE_RULE,) = words("submission size")
__all__ = ["SIZE_RULE", "TURN_ORDER"]

define(
    {
        "pbem.too_many_moves": "the submission holds %(count)s moves; send at most %(most)s "
        "at once",
        "pbem.move_too_long": "a move of %(length)s characters (%(start)s...); a move has at "
        "most %(most)s",
        "pbem.abandoned": "the game was abandoned by its organiser",
        "pbem.no_move": "the submission holds no move",
        "pbem.not_started": "the game has not started: it is waiting for players",
        "pbem.resigned": "you resigned from this game",
        "pbem.seat_changed_hands": "the seat passed to another player before this turn was "
        "judged, so it was not played",
        "pbem.page_outdated": "the game moved on since your page was drawn (then %(then)s "
        "moves, now %(now)s), and your move no longer fits: %(error)s",
    }
)
