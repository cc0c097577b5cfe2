"""Who takes the figures of a settlement once its land is surrounded."""

from __future__ import annotations

from collections.abc import Mapping

from engine.games.samurai.board import Board
from engine.games.samurai.tiles import kind

# space -> (seat, tile code)
Tiles = Mapping[int, tuple[int, str]]


def surrounded(board: Board, tiles: Tiles, settlement: int) -> bool:
    """Every land neighbour holds a tile; sea neighbours may stay empty."""
    return all(n in tiles for n in board.land_neighbors(settlement))


def influence(board: Board, tiles: Tiles, settlement: int, figure: str) -> dict[int, int]:
    """Each seat's total on one figure, from every tile around the settlement."""
    totals: dict[int, int] = {}
    for n in board.space(settlement).neighbors:
        if n in tiles:
            seat, code = tiles[n]
            totals[seat] = totals.get(seat, 0) + kind(code).influence(figure)
    return totals


def winner(totals: Mapping[int, int]) -> int | None:
    """The sole highest total; any tie at the top (zero included) gives nobody."""
    best = max(totals.values(), default=0)
    leaders = [seat for seat, total in totals.items() if total == best]
    if best == 0 or len(leaders) != 1:
        return None
    return leaders[0]


def resolve(
    board: Board, tiles: Tiles, settlement: int, figures: list[str]
) -> list[tuple[str, int | None]]:
    """Each figure with the seat that takes it, None when it is set aside."""
    return [(f, winner(influence(board, tiles, settlement, f))) for f in figures]
