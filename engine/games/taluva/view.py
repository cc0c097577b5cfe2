"""What each seat sees of a Taluva game: JSON for the server, a text board for
the terminal and the mails.

The only secrets are the order of the draw pile and the tile in the current
player's hand, which nobody else sees until it is laid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.messages import Message
from engine.core.textboard import TextBoard, render_hexes
from engine.games.taluva import ending
from engine.games.taluva.island import HUT, TEMPLE, TOWER
from engine.games.taluva.notation import format_hex
from engine.games.taluva.tiles import TERRAIN_LETTERS, Tile

if TYPE_CHECKING:
    from engine.games.taluva.state import TaluvaState

BUILDING_LETTERS = {HUT: "h", TEMPLE: "T", TOWER: "W"}


def seat_view(state: TaluvaState, seat: int | None) -> dict[str, Any]:
    own_tile = state.drawn if seat == state.current else None
    return {
        "phase": state.phase,
        "current": None if state.phase == "over" else state.current,
        "tiles_left": len(state.pile),
        "tile_drawn": state.drawn is not None,
        "tile_in_hand": {"left": own_tile.left, "right": own_tile.right} if own_tile else None,
        "board": [
            {
                "space": format_hex(space),
                "q": space[0],
                "r": space[1],
                "terrain": cell.terrain,
                "level": cell.level,
                "tile": cell.tile,
                "building": cell.building,
                "owner": cell.owner,
                "huts": cell.huts,
            }
            for space, cell in sorted(state.island.cells.items())
        ],
        "players": [
            {
                "seat": s,
                "stock": dict(stock),
                "built": ending.built(stock),
                "eliminated": s in state.eliminated,
                "finished": s in state.finished,
            }
            for s, stock in enumerate(state.stocks)
        ],
        "teams": [list(t) for t in ending.TEAMS_OF_FOUR] if state.options["teams"] else None,
        "last_built": [format_hex(space) for space in state.last_built],
    }


def _cell_lines(space: tuple[int, int], cell: Any) -> tuple[str, str]:
    content = f"{TERRAIN_LETTERS[cell.terrain]}{cell.level}"
    if cell.building:
        count = cell.huts if cell.building == HUT else ""
        content += f" {cell.owner + 1}{BUILDING_LETTERS[cell.building]}{count}"
    return format_hex(space), content


def text_board(state: TaluvaState, seat: int | None) -> TextBoard:
    cells = {s: _cell_lines(s, c) for s, c in state.island.cells.items()}
    lines = [] if cells else [Message("taluva.board_empty")]
    lines.append(Message("taluva.board_key"))
    lines.append(Message("taluva.board_pile", {"tiles": len(state.pile)}))
    for s, stock in enumerate(state.stocks):
        marker = "*" if s == state.current and state.phase != "over" else " "
        lines.append(
            Message(
                "taluva.board_seat",
                {
                    "marker": marker,
                    "seat": s + 1,
                    "huts": stock[HUT],
                    "temples": stock[TEMPLE],
                    "towers": stock[TOWER],
                },
            )
        )
        if s in state.eliminated:
            lines.append(Message("taluva.board_eliminated", {"seat": s + 1}))
        if s in state.finished:
            lines.append(Message("taluva.board_finished", {"seat": s + 1}))
    if state.phase != "over":
        doing = "taluva.board_to_lay" if state.phase == "tile" else "taluva.board_to_build"
        lines.append(Message(doing, {"seat": state.current + 1}))
        if seat == state.current and state.drawn is not None:
            lines.append(_your_tile(state.drawn))
    return TextBoard(render_hexes(cells) if cells else "", tuple(lines))


def _your_tile(tile: Tile) -> Message:
    return Message(
        "taluva.board_your_tile",
        {
            "left": Message("taluva.board_left", {"terrain": tile.left}),
            "right": Message("taluva.board_right", {"terrain": tile.right}),
        },
    )
