"""A game's time control: how long a seat has for each decision, its bank of
extra days, whether weekends count, and what a timeout does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext, ngettext

from pbem.i18n import in_language
from pbem.models import Game, OnTimeout
from pbem.services.errors import Invalid

DAYS_PER_MOVE = range(1, 31)
BANK_DAYS = range(0, 61)


@dataclass(frozen=True)
class TimeControl:
    days_per_move: int
    bank_days: int = 0
    weekends_off: bool = False
    on_timeout: str = OnTimeout.BOT

    def __post_init__(self) -> None:
        if self.days_per_move not in DAYS_PER_MOVE:
            raise Invalid(_("days per move must be from 1 to 30"))
        if self.bank_days not in BANK_DAYS:
            raise Invalid(_("bank days must be from 0 to 60"))
        if self.on_timeout not in set(OnTimeout):
            choices = ", ".join(OnTimeout)
            raise Invalid(
                _(
                    "on timeout must be one of %(choices)s, not %(value)r",
                    choices=choices,
                    value=self.on_timeout,
                )
            )

    @classmethod
    def of(cls, game: Game) -> TimeControl | None:
        """The game's clock; None for a game without one."""
        if game.days_per_move is None:
            return None
        return cls(game.days_per_move, game.bank_days, game.weekends_off, game.on_timeout)

    def apply_to(self, game: Game) -> None:
        """Set the clock of a game being made; every seat starts with the full bank."""
        game.days_per_move, game.bank_days = self.days_per_move, self.bank_days
        game.weekends_off, game.on_timeout = self.weekends_off, self.on_timeout
        for seat in game.seats:
            seat.bank_seconds = self.bank_days * 86400

    def to_json(self) -> dict[str, Any]:
        return {
            "days_per_move": self.days_per_move,
            "bank_days": self.bank_days,
            "weekends_off": self.weekends_off,
            "on_timeout": str(self.on_timeout),
        }

    def describe(self) -> str:
        """One line for pages and mails, like '3 days per move, bank 5 days, weekends off;
        on timeout a bot plays that move'."""
        parts = [ngettext("%(num)d day per move", "%(num)d days per move", self.days_per_move)]
        if self.bank_days:
            parts.append(ngettext("bank %(num)d day", "bank %(num)d days", self.bank_days))
        if self.weekends_off:
            parts.append(_("weekends off"))
        return _(
            "%(clock)s; on timeout %(outcome)s",
            clock=", ".join(parts),
            outcome=TIMEOUT_WORDS[self.on_timeout],
        )


def time_control_words(game: Game) -> str:
    """The game's clock in words for pages and lists, a friendly game included."""
    control = TimeControl.of(game)
    return control.describe() if control else _("no clock (a friendly game)")


TIMEOUT_WORDS: dict[str, Any] = {
    OnTimeout.BOT: lazy_gettext("a bot plays that move"),
    OnTimeout.FORFEIT: lazy_gettext("the player loses the seat"),
    OnTimeout.WAIT: lazy_gettext("the organiser decides"),
}


# What the timeout did, told to the others and to the late player. A forfeit
# is a resignation (pbem.services.resign): the result ranks the seat by what
# the bot makes of it, like any other. Kept in English with the game; each
# mail says it in its reader's language (pbem.mail.compose).
OUTCOMES = {
    OnTimeout.BOT: (
        lazy_gettext("A bot made this move for them; they keep their seat."),
        lazy_gettext("A bot made this move for you; you keep your seat."),
    ),
    OnTimeout.FORFEIT: (
        lazy_gettext("They lose their seat and rank last; a bot plays it to the end."),
        lazy_gettext("You lose your seat and rank last; a bot plays it to the end."),
    ),
    OnTimeout.WAIT: (
        lazy_gettext("The game waits for its organiser to decide."),
        lazy_gettext("The game waits for its organiser to decide."),
    ),
}


def outcome_said(rule: OnTimeout) -> tuple[str, str]:
    """What a timeout under `rule` did, told to the others and to the late
    player, in the English kept with the game (its event, its mails)."""
    with in_language(None):
        to_others, to_late = OUTCOMES[rule]
        return str(to_others), str(to_late)
