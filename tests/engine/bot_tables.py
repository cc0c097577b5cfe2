"""Mixed tables of bot levels for the whole-game tests: every level sits at
every player count, in five games instead of one per level and count."""

from __future__ import annotations

MIXED_TABLES: list[tuple[str, ...]] = [
    ("strong", "random"),
    ("medium", "easy"),
    ("easy", "strong", "random"),
    ("random", "random", "medium"),
    ("random", "strong", "medium", "easy"),
]


def table_id(levels: tuple[str, ...]) -> str:
    return "-".join(levels)
