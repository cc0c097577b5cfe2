"""The board picture of a mail: the recipient's own view, drawn by pbem.render."""

from __future__ import annotations

from typing import Any

from pbem.render import render_png


def board_png(view: dict[str, Any]) -> bytes:
    return render_png(view)
