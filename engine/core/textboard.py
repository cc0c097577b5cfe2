"""Text pictures of flat-top hex boards: each hex is a two-line block, odd
columns half a block lower, as on the printed and PNG boards."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.core import message_texts  # noqa: F401  (the templates used here)
from engine.core.hexgrid import Hex, to_offset
from engine.core.messages import Message


@dataclass(frozen=True)
class TextBoard:
    """A board in text: the drawing (space names and symbols, alike in every
    language) and the lines under it as messages, so that a server can show
    them in its reader's language; `text()` gives the English."""

    drawing: str
    lines: tuple[Message, ...] = ()

    def text(self, say: Callable[[Message], str] = Message.text) -> str:
        """The board with each line said by `say` (a translation), English by default."""
        said = [say(line) for line in self.lines]
        if not self.drawing:
            return "\n".join(said)
        return "\n".join([self.drawing, "", *said]) if said else self.drawing


def counts(numbers: Mapping[str, int]) -> tuple[Message, ...]:
    """`{"rice": 2}` as messages `rice 2` (the kind translated with the line)."""
    return tuple(Message("board.count", {"kind": k, "count": n}) for k, n in numbers.items())


# A mail reader's line: wider boards are drawn in strips of columns, west to
# east, one under the other (every hex names its space, so a strip needs no
# heading).
MAX_LINE = 80


def render_hexes(cells: Mapping[Hex, tuple[str, str]], width: int = 7) -> str:
    """Draw each hex's two lines (cut to `width`) at its place on the board."""
    if not cells:
        return "(empty board)"
    placed = {to_offset(h): lines for h, lines in cells.items()}
    columns = sorted({c for c, _ in placed})
    per_strip = max(MAX_LINE // (width + 1), 1)
    strips = -(-len(columns) // per_strip)
    size = -(-len(columns) // strips)
    drawn = []
    for start in range(0, len(columns), size):
        chosen = set(columns[start : start + size])
        drawn.append(_draw({k: v for k, v in placed.items() if k[0] in chosen}, width))
    return "\n\n".join(drawn)


def _draw(placed: Mapping[tuple[int, int], tuple[str, str]], width: int) -> str:
    """One strip: offset (column, row) cells, odd columns half a block lower."""
    cols = [c for c, _ in placed]
    rows = [r for _, r in placed]
    left, top = min(cols), min(rows)
    height = 2 * (max(rows) - top + 1) + 1
    canvas = [[" "] * ((max(cols) - left + 1) * (width + 1)) for _ in range(height)]
    for (col, row), cell_lines in placed.items():
        y = 2 * (row - top) + (col & 1)
        x = (col - left) * (width + 1)
        for dy, text in enumerate(cell_lines):
            canvas[y + dy][x : x + width] = list(text[:width].ljust(width))
    lines = ["".join(line).rstrip() for line in canvas]
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines).rstrip("\n")
