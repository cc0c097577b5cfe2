"""The games' names as each language's rulebook gives them (Samouraï, Samuraj)."""

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
