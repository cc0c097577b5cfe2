"""What one seat may see: everything public, its own hand, never the deck order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games.java.board import sort_spaces
from engine.games.java.tiles import VILLAGE_FACE

if TYPE_CHECKING:
    from engine.games.java.state import JavaState


def seat_view(state: JavaState, seat: int | None) -> dict[str, Any]:
    land = state.land
    auction = state.auction
    return {
        "current": state.current,
        "turn": state.turn_number,
        "ap_left": state.ap_left,
        "tile_placed": state.tile_placed,
        "cards_drawn": state.cards_drawn,
        "token_used": state.token_used,
        "final_round": state.final_round,
        "spaces": {
            c: {
                "level": land.level[c],
                "face": "village" if land.face[c] == VILLAGE_FACE else "rice",
            }
            for c in sort_spaces(land.level)
        },
        "developers": {c: land.developers[c] for c in sort_spaces(land.developers)},
        "palaces": {
            c: {"values": list(p.values), "festival": p.festival}
            for c, p in sorted(land.palaces.items())
        },
        "irrigation": list(sort_spaces(land.irrigation)),
        "scored_ponds": list(sort_spaces(land.scored_ponds)),
        "supply": {
            "triples": state.triples,
            "triples_set_aside": state.triples_set_aside,
            "irrigation": state.irrigation_left,
            "palaces": {str(v): n for v, n in state.palace_supply.items()},
        },
        "players": [
            {
                "score": state.scores[s],
                "tiles": dict(state.own_tiles[s]),
                "developers_off_board": state.off_board[s],
                "action_tokens": state.tokens[s],
                "hand_size": len(state.hands[s]),
                "final_scored": s in state.final_scored,
            }
            for s in range(state.players)
        ],
        "hand": list(state.hands[seat]) if seat is not None else None,
        "faceup": state.faceup,
        "deck_size": len(state.deck),
        "discards": list(state.discards),
        "auction": None
        if auction is None
        else {
            "palace": auction.palace,
            "organiser": auction.organiser,
            "seats": list(auction.order),
            "totals": {str(s): t for s, t in auction.totals.items()},
            "still_in": list(auction.active),
            "agreed": sorted(auction.agreed),
            "to_decide": auction.current,
            "cards_played": list(auction.played),
        },
        "events": list(state.events),
    }
