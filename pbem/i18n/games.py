"""The games' names as each language's rulebook gives them (Samouraï, Samuraj)."""

from __future__ import annotations

from flask_babel import lazy_gettext

TITLES = {
    "java": lazy_gettext("Java"),
    "taluva": lazy_gettext("Taluva"),
    "samurai": lazy_gettext("Samurai"),
}


def game_title(ruleset: str, default: str | None = None) -> str:
    """The name of the game a ruleset plays, in the current language; for a
    ruleset without a translated name, `default` (its own title) or its name."""
    title = TITLES.get(ruleset)
    return str(title) if title is not None else default or ruleset
