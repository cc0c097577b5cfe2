"""Taluva moves and their text: what a player types in an email.

tile 0,0 0,-1 1,-1     volcano on 0,0, left terrain on 0,-1, right on 1,-1
hut 2,-1               a new settlement
extend 2,-1 jungle     huts on every empty jungle next to that settlement
temple 3,-2
tower 1,1
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.core.hexgrid import Hex
from engine.core.messages import Message
from engine.core.vocabulary import Vocabulary
from engine.games.taluva import messages  # noqa: F401  (the templates used here)
from engine.games.taluva.tiles import TERRAIN_VOCABULARY

_HEX = re.compile(r"^\(?(-?\d+)\s*,\s*(-?\d+)\)?$")


@dataclass(frozen=True)
class PlaceTile:
    volcano: Hex
    left: Hex
    right: Hex


@dataclass(frozen=True)
class Build:
    """One building on one space: `kind` is hut (a new settlement), temple or tower."""

    kind: str
    at: Hex


@dataclass(frozen=True)
class Extend:
    """`settlement` is the settlement's first space in (q, r) order when canonical."""

    settlement: Hex
    terrain: str


BuildAction = Build | Extend
Move = PlaceTile | BuildAction

SINGLE_BUILDINGS = ("hut", "temple", "tower")
# The verbs in the French rulebook's words and in Czech; English is canonical.
VERBS = Vocabulary(
    {
        "tile": {"fr": ("tuile",), "cs": ("dílek", "dlaždice")},
        "hut": {"fr": ("hutte",), "cs": ("chýše",)},
        "temple": {"fr": ("temple",), "cs": ("chrám",)},
        "tower": {"fr": ("tour",), "cs": ("věž",)},
        "extend": {"fr": ("étendre", "agrandir"), "cs": ("rozšířit", "rozšiř")},
    }
)

SYNTAX_HELP = Message("taluva.syntax_help")


def format_hex(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse_hex(word: str) -> Hex:
    match = _HEX.match(word.strip())
    if not match:
        raise IllegalMove.of("taluva.not_a_space", word=word)
    return int(match.group(1)), int(match.group(2))


def format_move(move: Move) -> str:
    match move:
        case PlaceTile(v, left, right):
            return f"tile {format_hex(v)} {format_hex(left)} {format_hex(right)}"
        case Extend(at, terrain):
            return f"extend {format_hex(at)} {terrain}"
        case Build(kind, at):
            return f"{kind} {format_hex(at)}"
    raise TypeError(f"not a Taluva move: {move!r}")


def parse_move(text: str) -> Move:
    """Read a move; "2, -1" and "(2,-1)" are accepted as spaces, case and
    accents are ignored, and words may be English, French or Czech (VERBS,
    TERRAIN_VOCABULARY)."""
    # Let "2, -1" be one word before splitting on blanks.
    words = re.sub(r"\s*,\s*", ",", text.strip().lower()).split()
    if not words:
        raise IllegalMove.of("taluva.empty_move", help=SYNTAX_HELP)
    verb, args = VERBS.english(words[0]) or words[0], words[1:]
    if verb == "tile":
        if len(args) != 3:
            raise IllegalMove.of("taluva.tile_takes_three")
        return PlaceTile(*(parse_hex(a) for a in args))
    if verb in SINGLE_BUILDINGS:
        if len(args) != 1:
            raise IllegalMove.of("taluva.build_takes_one", verb=verb)
        return Build(verb, parse_hex(args[0]))
    if verb == "extend":
        if len(args) != 2:
            raise IllegalMove.of("taluva.extend_takes_two")
        terrain = TERRAIN_VOCABULARY.english(args[1])
        if terrain is None:
            raise IllegalMove.of("taluva.not_a_terrain", word=args[1])
        return Extend(parse_hex(args[0]), terrain)
    raise IllegalMove.of("taluva.unknown_move", verb=verb, help=SYNTAX_HELP)
