"""What each seat sees of a Taluva game: JSON for the server, text for the terminal.

The only secrets are the order of the draw pile and the tile in the current
player's hand, which nobody else sees until it is laid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.textboard import render_hexes
from engine.games.taluva import ending
from engine.games.taluva.island import HUT, TEMPLE, TOWER
from engine.games.taluva.notation import format_hex
from engine.games.taluva.tiles import TERRAIN_LETTERS

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


def text_picture(state: TaluvaState, seat: int | None) -> str:
    lines = [render_hexes({s: _cell_lines(s, c) for s, c in state.island.cells.items()})]
    lines.append("")
    lines.append(
        "terrain+level: V volcano, J jungle, C clearing, S sand, R rock, L lake; "
        "buildings: seat number + h hut (count), T temple, W tower"
    )
    lines.append(f"tiles left in the pile: {len(state.pile)}")
    for s, stock in enumerate(state.stocks):
        status = " (eliminated)" if s in state.eliminated else ""
        status += " (finished)" if s in state.finished else ""
        marker = "*" if s == state.current and state.phase != "over" else " "
        lines.append(
            f"{marker} seat {s + 1}: {stock[HUT]} huts, {stock[TEMPLE]} temples, "
            f"{stock[TOWER]} towers in stock{status}"
        )
    if state.phase != "over":
        doing = "lay a tile" if state.phase == "tile" else "build"
        lines.append(f"seat {state.current + 1} to {doing}")
        if seat == state.current and state.drawn is not None:
            lines.append(f"your tile: {state.drawn.describe()}")
    return "\n".join(lines)
