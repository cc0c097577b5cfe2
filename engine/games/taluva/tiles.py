"""The 48 volcano tiles and the terrain names players may type."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.core.vocabulary import Vocabulary

VOLCANO = "volcano"
TERRAINS = ("jungle", "clearing", "sand", "rock", "lake")

# English names are canonical; players may type the French rulebook's names
# (Talova, 2014) or the Czech ones, and the English first letters.
TERRAIN_VOCABULARY = Vocabulary(
    {
        "jungle": {"fr": ("forêt",), "cs": ("džungle", "les")},
        "clearing": {"fr": ("prairie",), "cs": ("mýtina", "louka")},
        "sand": {"fr": ("désert",), "cs": ("písek", "poušť")},
        "rock": {"fr": ("montagne",), "cs": ("skála", "hory")},
        "lake": {"fr": ("lac",), "cs": ("jezero",)},
    },
    extra={
        **{t[0]: t for t in TERRAINS},
        "forest": "jungle",
        "meadow": "clearing",
        "desert": "sand",
        "mountain": "rock",
    },
)

TERRAIN_LETTERS = {VOLCANO: "V", **{t: t[0].upper() for t in TERRAINS}}


@dataclass(frozen=True)
class Tile:
    """A volcano with two terrains, `left` and `right` as seen from the volcano.

    A tile cannot be turned over, so a (jungle, sand) tile never shows sand on
    the left: the handedness matters when it is placed.
    """

    left: str
    right: str

    def describe(self) -> str:
        return f"volcano, {self.left} on the left, {self.right} on the right"


UNKNOWN = Tile("unknown", "unknown")  # a trial's draw from the stack: chance concealed


def full_set() -> list[Tile]:
    """All 48 tiles in a fixed order (the order of the shipped data file)."""
    return list(_shipped_set())


@cache
def _shipped_set() -> tuple[Tile, ...]:
    """Read once: bots pool the unseen tiles from the set at every re-deal."""
    data = json.loads(resources.files(__package__).joinpath("data/tiles.json").read_text())
    return tuple(Tile(t["left"], t["right"]) for t in data["tiles"] for _ in range(t["count"]))
