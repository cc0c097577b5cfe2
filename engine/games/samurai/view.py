"""What one seat may see: the board and everything public, plus what lies
behind its own screen; all screens open when the game is over."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.games.samurai.tiles import in_order

if TYPE_CHECKING:
    from engine.games.samurai.state import SamuraiState


def _screen(state: SamuraiState, seat: int) -> dict[str, Any]:
    """Behind a screen: the hand, the captured figures and the opening choice.
    The pile is face down, so even its owner sees only which tiles it holds."""
    choice = state.choices[seat]
    return {
        "hand": list(state.hands[seat]),
        "captured": dict(state.captured[seat]),
        "choice": list(choice) if choice is not None else None,
        "pile_tiles": in_order(list(Counter(state.piles[seat]).elements())),
    }


def _public_seat(state: SamuraiState, seat: int) -> dict[str, Any]:
    return {
        "chosen": state.choices[seat] is not None,
        "hand_size": len(state.hands[seat]),
        "pile_size": len(state.piles[seat]),
        "figure_exchanges_played": state.figure_exchanges[seat],
    }


def seat_view(state: SamuraiState, viewer: int | None) -> dict[str, Any]:
    board = state.board
    seats = []
    for seat in range(state.players):
        entry = _public_seat(state, seat)
        if state.screens_open(viewer, seat):
            entry.update(_screen(state, seat))
        seats.append(entry)
    resolution = []
    for settlement, figure, captor in state.last_resolution:
        event: dict[str, Any] = {
            "settlement": board.name(settlement),
            "figure": figure,
            "set_aside": captor is None,
        }
        if captor is not None and state.screens_open(viewer, captor):
            event["taken_by"] = captor
        resolution.append(event)
    return {
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current if state.phase in ("figures", "play") else None,
        "played_this_turn": list(state.played),
        "spaces": [
            {"name": s.name, "kind": s.kind, "slots": s.slots, "q": s.q, "r": s.r}
            for s in board.spaces.values()
        ],
        "tiles": {
            board.name(space): {"seat": owner, "tile": code}
            for space, (owner, code) in sorted(state.tiles.items())
        },
        "figures": {board.name(s): list(f) for s, f in sorted(state.figures.items())},
        "figure_supply": dict(state.supply),
        "set_aside": dict(state.set_aside),
        "last_resolution": resolution,
        "passed": list(state.passed),
        "screens_open": state.phase == "over",
        "seats": seats,
    }
