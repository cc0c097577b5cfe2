"""Bots at levels: the seat choices that name them, their words, and the moves
a bot makes for a seat (thought out by pbem.services.bot_thinking on the
bots' own queue)."""

from __future__ import annotations

from flask import current_app, has_app_context
from flask_babel import gettext as _
from flask_babel import lazy_gettext

import engine
from engine.bots import DEFAULT_LEVEL, LEVELS, decision_key, make_bot
from pbem.config import stand_in_setting
from pbem.i18n import in_language
from pbem.i18n.phrases import Phrase
from pbem.services.errors import Invalid

MAX_BOT_MOVES = 50  # one turn of any game is far shorter
# A seat's choice in the new-game form and the API: "bot" (the default
# level) or "bot:LEVEL".
BOT_CHOICE = "bot"
LEVEL_WORDS = {
    "random": lazy_gettext("random moves"),
    "easy": lazy_gettext("easy"),
    "medium": lazy_gettext("medium"),
    "strong": lazy_gettext("strong"),
}
assert set(LEVEL_WORDS) == set(LEVELS)  # a level without words would show its name


def level_of_choice(choice: str) -> str | None:
    """The bot level a seat choice names ("bot", "bot:strong"), None when the
    choice is not a bot; Invalid for an unknown level."""
    kind, _colon, level = choice.partition(":")
    if kind != BOT_CHOICE:
        return None
    return checked_level(level or DEFAULT_LEVEL)


def checked_level(level: str) -> str:
    """`level` if it is one; else Invalid, naming the levels there are."""
    if level not in LEVELS:
        raise Invalid(
            _(
                "unknown bot level %(level)s (levels: %(levels)s)",
                level=repr(level),
                levels=", ".join(LEVELS),
            )
        )
    return level


def stand_in_or_default(level: str | None) -> str:
    """The stand-in level an organiser chose, else the installation's
    (PBEM_STAND_IN; outside an app, a script's, as the environment sets it);
    Invalid for an unknown one."""
    if level is None:
        level = current_app.config["PBEM_STAND_IN"] if has_app_context() else stand_in_setting()
    return checked_level(level)


def level_words(level: str) -> str:
    """The level as people read it ("strong"), in the current language."""
    return str(LEVEL_WORDS.get(level, level))


def level_phrase(level: str) -> Phrase:
    """The level's words kept in a phrase, written in each reader's language."""
    with in_language(None):
        return Phrase(level_words(level))


def bot_turn(game: engine.Game, position: int, level: str, *, stand_in: bool = False) -> list[str]:
    """The moves a bot of `level` makes while it is the seat's turn, chosen
    on a copy. A `stand_in` makes one timed-out decision for a player who
    keeps the seat: it plays only until that decision is made (a seat may act
    again at once in a new decision, which then is not the bot's), within the
    turn's normal means, keeping the player's reserves (engine
    State.keep_reserves: Java's action tokens, festival cards and own tiles;
    Samurai's fast tiles). A bot that holds the seat for good uses everything.

    Each decision's randomness comes from the game's seed, the seat and the
    ply (engine.bots.decision_key), so a bot's moves can be checked after the
    game; the bot sees only what its seat may see.
    """
    trial = game.copy()
    if stand_in:
        trial.state.keep_reserves(position)
    texts: list[str] = []
    while position in trial.state.to_act() and len(texts) < MAX_BOT_MOVES:
        key = decision_key(game.seed, position, len(trial.log))
        bot = make_bot(level, game.ruleset.name, key)
        trial.push(position, bot.choose(trial.state, position))
        texts.append(trial.log[-1].text)
        if stand_in and not trial.state.turn_goes_on(position):
            break
    return texts
