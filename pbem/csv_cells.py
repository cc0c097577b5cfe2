"""CSV the way pbem writes it: every cell a spreadsheet could run as a formula
is neutralised first (OWASP's rule: a cell starting with = + - @, a tab or a
carriage return gets a leading apostrophe), so a player named
`=HYPERLINK(...)` stays text in whoever opens the file."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A plain number ("-3", "-1.5", "-3/2" as the tables write fractions) is no formula.
_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?(/\d+)?")


def safe_cell(value: Any) -> Any:
    """`value`, or a text that would start a formula with an apostrophe before it."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """A header line and one line per row, every cell through safe_cell."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({column: safe_cell(value) for column, value in row.items()})
    return out.getvalue()
