"""Each game's notation (how to write its moves) is a file of `pbem/help/notation`
per language, served at `/help/<game>`; pages and mails link there."""

from __future__ import annotations

from functools import cache
from pathlib import Path

NOTATIONS = Path(__file__).resolve().parent.parent / "help" / "notation"


@cache
def notation_games() -> frozenset[str]:
    """The rulesets with a notation page (the tests' toy games have none)."""
    return frozenset(path.name.split(".")[0] for path in NOTATIONS.glob("*.md"))


def notation_file(game: str, language: str) -> Path:
    return NOTATIONS / (f"{game}.md" if language == "en" else f"{game}.{language}.md")


def notation_path(game: str, language: str) -> str | None:
    """The page's path and query, from the site's root; None without a page."""
    return f"/help/{game}?lang={language}" if game in notation_games() else None
