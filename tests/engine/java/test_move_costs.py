"""`Land.move_costs` (one search per position and source, kept for the check
and the apply of a move; a map of one-colour regions once a second developer
of the seat is asked about) against a plain shortest-path search, along
seeded bot games and after the position changes under it."""

import heapq
from typing import Any

import pytest

from engine import Game
from engine.core.selfplay import play_bot_game
from engine.games.java.board import NEIGHBORS
from engine.games.java.land import Land
from tests.engine.java.helpers import game, palace, put


def cheapest(land: Land, source: str) -> dict[str, int]:
    """Dijkstra over land tiles: one per colour change, no palaces, no
    opponents; the developer may pass its own but not end on them."""
    seat = land.developers[source]
    best = {source: 0}
    todo = [(0, source)]
    while todo:
        cost, cell = heapq.heappop(todo)
        if cost > best[cell]:
            continue
        for n in NEIGHBORS[cell]:
            if n in land.level and n not in land.palaces and land.developers.get(n, seat) == seat:
                step = cost + (land.face[n] != land.face[cell])
                if step < best.get(n, step + 1):
                    best[n] = step
                    heapq.heappush(todo, (step, n))
    return {cell: cost for cell, cost in best.items() if cell not in land.developers}


@pytest.mark.parametrize(("players", "seed"), [(2, "costs-1"), (4, "costs-3")])
def test_move_costs_match_a_plain_search_along_bot_games(players, seed):
    def follow(game: Game, seat: int, move: Any) -> None:
        if len(game.log) % 3:
            return
        land = game.state.land
        for source, seat in land.developers.items():
            plain = cheapest(land, source)
            assert land.move_costs(source) == plain
            assert land.move_costs(source) is land.move_costs(source)  # searched once
            # Both searches: one move checked floods, a list maps the regions.
            assert land._flood_costs(source) == plain
            assert land._region_costs(source, land._regions(seat)) == plain

    play_bot_game("java", players, seed, on_move=follow)


def test_move_costs_follow_every_change_of_the_position():
    state = game(2, 0, "rice G9", "rice G8", "village F8", "rice E8")
    put(state, 0, "G9")
    land = state.land
    before = {"G8": 0, "F8": 1, "E8": 2}
    assert land.move_costs("G9") == before
    palace(state, "F8", 2)  # a palace blocks the only way on
    assert land.move_costs("G9") == {"G8": 0}
    del land.palaces["F8"]
    assert land.move_costs("G9") == before
    put(state, 1, "F8")  # so does an opponent
    assert land.move_costs("G9") == {"G8": 0}
    del land.developers["F8"]
    assert land.move_costs("G9") == before
    land.face["F8"] = land.face["G8"]  # a colour changed by a tile on top
    assert land.move_costs("G9") == cheapest(land, "G9") == {"G8": 0, "F8": 0, "E8": 0}
