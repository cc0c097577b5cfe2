"""The games' names as each language's rulebook gives them (Samouraï, Samuraj)."""

from __future__ import annotations

from flask_babel import lazy_gettext

import engine

TITLES = {
    "java": lazy_gettext("Java"),
    "taluva": lazy_gettext("Taluva"),
    "samurai": lazy_gettext("Samurai"),
}


def game_title(ruleset: str, default: str | None = None) -> str:
    """The name of the game a ruleset plays, in the current language; other
    rulesets (the tests' toy games) by `default` or the title they give themselves."""
    title = TITLES.get(ruleset)
    if title is not None:
        return str(title)
    return default or engine.get_ruleset(ruleset).title
