"""The board as text: each space shows its id and level, its face and what stands on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.textboard import render_hexes
from engine.games.java.board import SPACES
from engine.games.java.tiles import VILLAGE_FACE

if TYPE_CHECKING:
    from engine.games.java.state import JavaState

_EMPTY = {"mountain": "^^^", "lowland": "___", "land": "", "irrigation": "~~~"}


def _cell(state: JavaState, cell: str) -> tuple[str, str]:
    land = state.land
    if cell in land.irrigation:
        return f"{cell:<4}~", "~~~~"
    if cell not in land.level:
        return f"{cell:<4}", _EMPTY[SPACES[cell].kind]
    face = "v" if land.face[cell] == VILLAGE_FACE else "r"
    top = f"{cell:<4}{land.level[cell]}{face}"
    if cell in land.palaces:
        palace = land.palaces[cell]
        return top, f"P{palace.value}{'*' if palace.festival else ''}"
    if cell in land.developers:
        return top, f"#{land.developers[cell] + 1}"
    return top, ""


def text_picture(state: JavaState, seat: int | None) -> str:
    board = render_hexes({(s.q, s.r): _cell(state, sid) for sid, s in SPACES.items()})
    lines = [
        board,
        "",
        "key: level and r rice / v village; #N developer of seat N; PV palace of value V"
        " (* festival held); ~ irrigation; ^^^ mountains; ___ lowlands",
    ]
    for s in range(state.players):
        tiles = ", ".join(f"{k} {n}" for k, n in state.own_tiles[s].items())
        marker = ">" if s == state.current else " "
        lines.append(
            f"{marker} seat {s + 1}: {state.scores[s]} points, {tiles}, "
            f"{state.off_board[s]} developers off board, {state.tokens[s]} tokens, "
            f"{len(state.hands[s])} cards"
        )
    lines.append(
        f"triples {state.triples}, irrigation {state.irrigation_left}, face-up card "
        f"{state.faceup or '-'}, deck {len(state.deck)}, AP left {state.ap_left}"
    )
    if seat is not None:
        lines.append(f"your hand: {' '.join(state.hands[seat]) or '(empty)'}")
    if state.auction is not None:
        a = state.auction
        totals = ", ".join(f"seat {s + 1} {a.totals[s]}" for s in a.active)
        lines.append(f"festival at {a.palace}: {totals}; seat {a.current + 1} decides")
    return "\n".join(lines)
