"""What a submission's moves would do, told without revealing chance.

A preview that played the moves on a plain copy would show the card a draw
gives, and a refusal would tell a player what they would have drawn. A trial
plays them on a copy in which every draw from a face-down source yields a
placeholder; moves after such a draw cannot be judged yet, so they are only
read, and judged with the real draw when the submission is played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.errors import IllegalMove
from engine.core.messages import Message

if TYPE_CHECKING:
    from engine.core.game import Game


@dataclass(frozen=True)
class Trial:
    """A seat's moves tried on a copy in which chance is concealed."""

    game: Game  # the position after the checked moves; holds placeholders, never play it on
    seat: int
    checked: tuple[str, ...]  # canonical texts, judged and applied
    unchecked: tuple[str, ...]  # canonical texts after a concealed draw, judged when played
    concealed_draws: int  # items drawn in the trial, each shown as a placeholder

    def view(self) -> dict[str, Any]:
        return self.game.view(self.seat)

    def text_picture(self) -> str:
        return self.game.state.text_picture(self.seat)


@dataclass(frozen=True)
class PartlyPlayed:
    """A submission played in part: a draw cannot be taken back, so when a move
    after it fails, the moves up to the draw stand and the rest are refused."""

    played: tuple[str, ...]  # canonical texts applied
    failed: str  # the move that broke a rule, as sent
    error: IllegalMove
    not_played: tuple[str, ...]  # every move from the failed one on, as sent

    @property
    def message(self) -> Message:
        return Message(
            "turn.partly_played",
            {
                "played": "; ".join(self.played),
                "not_played": "; ".join(self.not_played),
                "failed": self.failed,
                "error": self.error.quoted(),
            },
        )

    def __str__(self) -> str:
        return self.message.text()
