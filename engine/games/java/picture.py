"""The board as text: each space shows its id and level, its face and what stands on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core.messages import Message
from engine.core.textboard import TextBoard, counts, render_hexes
from engine.games.java.board import SPACES
from engine.games.java.cards import UNKNOWN
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


def text_board(state: JavaState, seat: int | None) -> TextBoard:
    board = render_hexes({(s.q, s.r): _cell(state, sid) for sid, s in SPACES.items()})
    lines = [Message("java.board_key")]
    for s in range(state.players):
        lines.append(
            Message(
                "java.board_seat",
                {
                    "marker": ">" if s == state.current else " ",
                    "seat": s + 1,
                    "points": state.scores[s],
                    "tiles": counts(state.own_tiles[s]),
                    "developers": state.off_board[s],
                    "tokens": state.tokens[s],
                    "cards": len(state.hands[s]),
                },
            )
        )
    lines.append(
        Message(
            "java.board_supply",
            {
                "triples": state.triples,
                "irrigation": state.irrigation_left,
                "faceup": _faceup(state.faceup),
                "deck": len(state.deck),
                "ap": state.ap_left,
            },
        )
    )
    if seat is not None:
        lines.append(_hand(state.hands[seat]))
    if state.auction is not None:
        a = state.auction
        bids = tuple(
            Message("java.board_bid", {"seat": s + 1, "total": a.totals[s]}) for s in a.active
        )
        lines.append(
            Message("java.board_festival", {"space": a.palace, "bids": bids, "seat": a.current + 1})
        )
    return TextBoard(board, tuple(lines))


def _faceup(card: str | None) -> str | Message:
    """The face-up card; in a preview, one drawn from the deck is not known yet."""
    if card == UNKNOWN:
        return Message("java.board_card_unknown")
    return card or "-"


def _hand(hand: Sequence[str]) -> Message:
    """The seat's cards; a preview's draws from the deck are not known yet."""
    known = " ".join(card for card in hand if card != UNKNOWN)
    drawn = hand.count(UNKNOWN)
    if drawn:
        return Message("java.board_hand_drawn", {"cards": known or "-", "drawn": drawn})
    return Message("java.board_hand", {"cards": known}) if known else Message("java.board_no_hand")
