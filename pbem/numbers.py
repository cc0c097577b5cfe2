"""Numbers typed into URLs and forms: ASCII digits that fit the database's
integer columns, or nothing, so a bad number is 'not found' and never an error
deep in the database driver."""

from __future__ import annotations

MAX_ID = 2**31 - 1  # PostgreSQL's integer; SQLite stores more, but no row gets there
# URL converter for ids and seat numbers in paths: larger numbers match no route.
ID_CONVERTER = f"int(max={MAX_ID})"


def whole_number(raw: str | None) -> int | None:
    """The number `raw` spells in ASCII digits, up to MAX_ID; None for anything
    else (`²` and `٣` are digits to Python's str.isdigit, not to us)."""
    if not raw or not (raw.isascii() and raw.isdigit()):
        return None
    number = int(raw)
    return number if number <= MAX_ID else None
