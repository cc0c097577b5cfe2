"""What happened since a reader last moved, as pictures and pages show it: the
other players' turns, and the spaces each of them touched, outlined in the
mover's colour."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.render.colours import EDGE
from pbem.render.hexdraw import HexLayout
from pbem.render.surface import Colour, Surface

History = Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Turn:
    """One run of moves of one seat in the history: a whole turn (Taluva's
    tile and build, Samurai's tiles and `end`), or what of it was played."""

    seat: int
    first_ply: int  # the ply its first move made (1 for the game's first move)
    moves: tuple[str, ...]


def moves_since(history: History, me: int | None) -> list[tuple[int, Mapping[str, Any]]]:
    """(ply, entry) of every move after the seat's own last move (all of them
    when it has not moved, or for nobody's seat)."""
    mine = [i for i, entry in enumerate(history) if entry["seat"] == me]
    start = mine[-1] + 1 if mine else 0
    return list(enumerate(history[start:], start=start + 1))


def turns_of(entries: Iterable[tuple[int, Mapping[str, Any]]]) -> list[Turn]:
    """Consecutive (ply, entry) pairs of one seat, each run as one turn."""
    turns: list[Turn] = []
    for ply, entry in entries:
        if turns and turns[-1].seat == entry["seat"]:
            last = turns[-1]
            turns[-1] = Turn(last.seat, last.first_ply, (*last.moves, entry["move"]))
        else:
            turns.append(Turn(entry["seat"], ply, (entry["move"],)))
    return turns


def last_turn(history: History) -> Turn | None:
    """The last mover's moves since another seat moved."""
    if not history:
        return None
    start = len(history) - 1
    while start > 0 and history[start - 1]["seat"] == history[-1]["seat"]:
        start -= 1
    return turns_of(enumerate(history[start:], start=start + 1))[0]


def outlined_turns(view: Mapping[str, Any]) -> list[Turn]:
    """The turns a picture of `view` outlines: every other seat's since the
    viewer last moved; the last turn alone for a spectator, or when nobody has
    moved since the viewer."""
    history = view.get("history", [])
    viewer = view.get("viewer")
    since = turns_of(moves_since(history, viewer)) if viewer is not None else []
    if since:
        return since
    last = last_turn(history)
    return [last] if last is not None else []


def spaces_named(moves: Iterable[str], names: Iterable[str]) -> set[str]:
    """Every space the moves mention, by the notation's names (case ignored)."""
    by_key = names_by_key(names)
    return {name for move in moves for name in spaces_in(move, by_key)}


def names_by_key(names: Iterable[str]) -> dict[str, str]:
    """Space names by their upper case, for `spaces_in`."""
    return {name.upper(): name for name in names}


def spaces_in(move: str, by_key: Mapping[str, str]) -> list[str]:
    """The spaces a move's text names, in the order it names them."""
    found = []
    for word in move.replace("(", " ").replace(")", " ").split():
        name = by_key.get(word.upper())
        if name is not None and name not in found:
            found.append(name)
    return found


def outlines(
    view: Mapping[str, Any], names: Collection[str], kinds: Collection[str] = ()
) -> dict[str, int]:
    """The seat whose outlined turn touched each space (a later turn wins);
    only moves of `kinds` (first words) count when given."""
    touched: dict[str, int] = {}
    for turn in outlined_turns(view):
        moves = [m for m in turn.moves if not kinds or m.split(" ", 1)[0] in kinds]
        for name in spaces_named(moves, names):
            touched[name] = turn.seat
    return touched


def highlight(canvas: Surface, lay: HexLayout, h: tuple[int, int], colour: Colour) -> None:
    """A ring inside the hex in the mover's colour, edged dark so it reads on
    every terrain."""
    ring = lay.corners(h, 0.86)
    canvas.outline(ring, EDGE, lay.size * 0.16)
    canvas.outline(ring, colour, lay.size * 0.1)
