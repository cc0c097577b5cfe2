"""The board in text: each space shows its name and then its tile (seat
number and tile) or its figures; below, the public counts and the viewer's screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.errors import Argument
from engine.core.messages import Message
from engine.core.textboard import TextBoard, counts, render_hexes
from engine.games.samurai.tiles import FIGURES, kind

if TYPE_CHECKING:
    from engine.games.samurai.state import SamuraiState

FIGURE_LETTER = {"helmet": "H", "buddha": "B", "rice": "R"}
TILE_SHORT = {
    "samurai": "S",
    "ronin": "Ro",
    "ship": "Sh",
    "token_exchange": "TX",
    **{f: FIGURE_LETTER[f] for f in FIGURES},
}
SETTLEMENT_MARK = {"village": "v", "city": "c", "edo": "E"}
PHASE_NAMES = {
    "choose": "samurai.board_phase_choose",
    "figures": "samurai.board_phase_figures",
    "play": "samurai.board_phase_play",
    "over": "samurai.board_phase_over",
}


def tile_label(seat: int, code: str) -> str:
    """E.g. 2:H4 for seat 2's helmet 4, 1:Sh2 for a ship 2 (seats count from 1)."""
    tile = kind(code)
    strength = str(tile.strength) if tile.type not in ("ronin", "token_exchange") else ""
    return f"{seat + 1}:{TILE_SHORT[tile.type]}{strength}"


def _cells(state: SamuraiState) -> dict[tuple[int, int], tuple[str, str]]:
    cells = {}
    for space in state.board.spaces.values():
        if space.id in state.tiles:
            content = tile_label(*state.tiles[space.id])
        elif space.is_settlement:
            letters = "".join(FIGURE_LETTER[f] for f in state.figures[space.id])
            content = f"{SETTLEMENT_MARK[space.kind]}[{letters}]"
        else:
            content = "~~~" if space.is_sea else "."
        cells[(space.q, space.r)] = (space.name, content)
    return cells


def picture(state: SamuraiState, viewer: int | None) -> TextBoard:
    phase = Message(PHASE_NAMES[state.phase])
    lines = [Message("samurai.board_phase", {"phase": phase, "turn": state.turn})]
    if state.phase == "figures":
        lines.append(Message("samurai.board_to_place", {"figures": _counts(state.supply)}))
    lines.append(Message("samurai.board_set_aside", {"figures": _counts(state.set_aside)}))
    for seat in range(state.players):
        public = {"seat": seat + 1, "hand": len(state.hands[seat]), "pile": len(state.piles[seat])}
        if state.screens_open(viewer, seat):
            screen: dict[str, Argument] = {
                "tiles": _tiles(state.hands[seat]),
                "captured": _counts(state.captured[seat]),
            }
            lines.append(Message("samurai.board_screen", {**public, **screen}))
        else:
            lines.append(Message("samurai.board_seat", public))
    return TextBoard(render_hexes(_cells(state)), tuple(lines))


def _tiles(codes: list[str]) -> tuple[Message, ...]:
    """Tiles by name, each a word the reader's language names ("přilba4")."""
    tiles = tuple(Message("samurai.board_tile", {"tile": code}) for code in codes)
    return tiles or (Message("samurai.board_no_tiles"),)


def _counts(numbers: dict[str, int]) -> tuple[Message, ...]:
    return counts({figure: numbers[figure] for figure in FIGURES})
