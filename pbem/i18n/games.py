"""The games' names as each language's rulebook gives them (Samouraï, Samuraj),
and their moves in each language's words."""

from __future__ import annotations

from flask_babel import lazy_gettext

import engine

TITLES = {
    "java": lazy_gettext("Java"),
    "taluva": lazy_gettext("Taluva"),
    "samurai": lazy_gettext("Samurai"),
}


def game_title(ruleset: str) -> str:
    """The name of the game a ruleset plays, in the current language; other
    rulesets (the tests' toy games) by the title they give themselves."""
    title = TITLES.get(ruleset)
    return str(title) if title is not None else engine.get_ruleset(ruleset).title


def said_move(ruleset: str, text: str, language: str) -> str:
    """A move's text in the words of `language`, as the mails and the pages
    write it and a player of that language would type it ("tuile 0,0 ...")."""
    return engine.get_ruleset(ruleset).said_move(text, language)
