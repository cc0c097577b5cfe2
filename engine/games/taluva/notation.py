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
from engine.games.taluva.tiles import TERRAIN_WORDS

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

SYNTAX_HELP = (
    "write one of: 'tile V L R' (volcano, left terrain, right terrain spaces), "
    "'hut S', 'temple S', 'tower S', 'extend S TERRAIN' — spaces as q,r like 2,-1"
)


def format_hex(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse_hex(word: str) -> Hex:
    match = _HEX.match(word.strip())
    if not match:
        raise IllegalMove(f"{word!r} is not a space: spaces are written q,r like 2,-1")
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
    """Read a move; "2, -1" and "(2,-1)" are accepted as spaces, case is ignored."""
    # Let "2, -1" be one word before splitting on blanks.
    words = re.sub(r"\s*,\s*", ",", text.strip().lower()).split()
    if not words:
        raise IllegalMove("the move is empty: " + SYNTAX_HELP)
    verb, args = words[0], words[1:]
    if verb == "tile":
        if len(args) != 3:
            raise IllegalMove("'tile' takes three spaces: volcano, left terrain, right terrain")
        return PlaceTile(*(parse_hex(a) for a in args))
    if verb in SINGLE_BUILDINGS:
        if len(args) != 1:
            raise IllegalMove(f"'{verb}' takes one space, like '{verb} 2,-1'")
        return Build(verb, parse_hex(args[0]))
    if verb == "extend":
        if len(args) != 2:
            raise IllegalMove("'extend' takes a space of the settlement and a terrain")
        terrain = TERRAIN_WORDS.get(args[1])
        if terrain is None:
            raise IllegalMove(f"{args[1]!r} is not a terrain: jungle, clearing, sand, rock or lake")
        return Extend(parse_hex(args[0]), terrain)
    raise IllegalMove(f"unknown move {verb!r}: " + SYNTAX_HELP)
