"""The 20 tiles of each colour, their names in the notation and their influence."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIGURES = ("helmet", "buddha", "rice")
INFLUENCE_ON_ALL = ("samurai", "ronin", "ship")
# Normal tiles first, then the fast ones that may join them in a turn.
TYPE_ORDER = (*FIGURES, "samurai", "token_exchange", "ronin", "ship", "figure_exchange")


@dataclass(frozen=True)
class TileKind:
    code: str  # the tile's name in the notation
    type: str  # helmet, buddha, rice, samurai, ronin, ship, figure_exchange, token_exchange
    strength: int
    fast: bool

    @property
    def is_ship(self) -> bool:
        return self.type == "ship"

    @property
    def goes_on_board(self) -> bool:
        """The figure exchange is laid beside the board, every other tile on it."""
        return self.type != "figure_exchange"

    def influence(self, figure: str) -> int:
        """Symbol tiles count for their own figure only; samurai, ronin, ships for all."""
        if self.type == figure or self.type in INFLUENCE_ON_ALL:
            return self.strength
        return 0


def _code(entry: dict[str, Any]) -> str:
    kind: str = entry["type"]
    if kind in ("ronin", "figure_exchange", "token_exchange"):
        return kind.replace("_", "-")
    return f"{entry['type']}{entry['strength']}"


def _load() -> list[TileKind]:
    path = Path(__file__).parent / "data" / "tiles.json"
    entries = json.loads(path.read_text(encoding="utf-8"))["per_colour"]
    return [TileKind(_code(e), e["type"], e["strength"], e["fast"]) for e in entries]


_ALL = _load()
KINDS: dict[str, TileKind] = {}
for _kind in sorted(_ALL, key=lambda k: (TYPE_ORDER.index(k.type), k.strength)):
    KINDS.setdefault(_kind.code, _kind)

# Every colour's 20 tiles, in the stable order used for hands and choices.
COLOUR_SET: tuple[str, ...] = tuple(
    sorted((k.code for k in _ALL), key=lambda code: list(KINDS).index(code))
)
COLOUR_COUNTS = Counter(COLOUR_SET)
HAND_SIZE = 5
UNKNOWN = "a tile from your pile"  # a trial's draw: chance concealed


def kind(code: str) -> TileKind:
    return KINDS[code]


def in_order(codes: list[str] | tuple[str, ...]) -> list[str]:
    """Tiles in catalogue order, so equal hands and choices compare equal;
    a trial's unknown tiles last."""
    order = list(KINDS)
    return sorted(codes, key=lambda code: order.index(code) if code in KINDS else len(order))
