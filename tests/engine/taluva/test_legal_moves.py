"""The fast legal-move lists (kept candidate sets, footprints worked out once)
against the straightforward ones: every move of a region or of the island,
judged by the rules' own checks, over every position of seeded bot games."""

from typing import Any

import pytest

from engine import Game
from engine.core.hexgrid import DIRECTIONS, add
from engine.core.selfplay import play_bot_game
from engine.games.taluva.builds import Builder
from engine.games.taluva.island import Island
from engine.games.taluva.notation import SINGLE_BUILDINGS, Build, Extend, PlaceTile
from engine.games.taluva.state import BUILD, TaluvaState
from engine.games.taluva.tiles import TERRAINS
from tests.engine.taluva.helpers import island_of


def every_placement(island: Island) -> list[PlaceTile]:
    """Each tile with its volcano within two spaces of the island (no legal
    one lies further), judged by `placement_error`."""
    if not island.cells:  # the first tile's turns, listed in the order of the directions
        return [PlaceTile((0, 0), DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]) for d in range(6)]
    spaces = island.cells
    qs, rs = [q for q, _ in spaces], [r for _, r in spaces]
    moves = [
        PlaceTile((q, r), add((q, r), DIRECTIONS[d]), add((q, r), DIRECTIONS[(d + 1) % 6]))
        for q in range(min(qs) - 2, max(qs) + 3)
        for r in range(min(rs) - 2, max(rs) + 3)
        for d in range(6)
    ]
    legal = [m for m in moves if island.placement_error(m) is None]
    return sorted(legal, key=lambda m: (m.volcano, m.left, m.right))


def every_build(builder: Builder) -> list[Build | Extend]:
    """Each building on each space, then each extension, judged by `error`."""
    singles = [
        Build(kind, space)
        for space in sorted(builder.island.cells)
        for kind in SINGLE_BUILDINGS
        if builder.error(Build(kind, space)) is None
    ]
    extensions = [
        Extend(settlement.key, terrain)
        for settlement in builder.mine
        for terrain in TERRAINS
        if builder.error(Extend(settlement.key, terrain)) is None
    ]
    return singles + extensions


def check_position(state: TaluvaState) -> None:
    if state.is_over():
        return
    if state.phase == BUILD:
        assert state.legal_moves(state.current) == every_build(state._builder(state.current))
        for seat in state.in_play():  # other stocks and settlements too
            builder = state._builder(seat)
            assert list(builder.legal()) == every_build(builder)
    else:
        assert state.legal_moves(state.current) == every_placement(state.island)
        # Worked out afresh on a copy, the kept candidates give the same list.
        fresh = state.copy().island
        fresh._table = None
        assert fresh.legal_placements() == state.island.legal_placements()


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (2, {}, "cross-1"),
        (2, {"tiles": 36}, "cross-2"),
        (3, {}, "cross-3"),
        (3, {"ranking": True}, "cross-4"),
        (4, {}, "cross-5"),
        (4, {"teams": True}, "cross-6"),
    ],
)
def test_legal_moves_match_the_rules_checks_along_bot_games(players, options, seed):
    def follow(game: Game, seat: int, move: Any) -> None:
        check_position(game.state)

    first = Game.new("taluva", [f"s{i}" for i in range(players)], seed, options)
    check_position(first.state)
    play_bot_game("taluva", players, seed, options, on_move=follow, bot="kinds")


def test_an_eruption_is_listed_only_where_every_rule_allows_it():
    # Two tiles side by side: volcanoes on 0,0 and 2,-1, an eruption possible
    # across the two tiles' spaces but never onto one tile exactly.
    island = island_of("tile 0,0 0,-1 1,-1", "tile 2,-1 2,0 1,0")
    erupting = [m for m in island.legal_placements() if m.volcano in island.cells]
    assert erupting == [m for m in every_placement(island) if m.volcano in island.cells]
    assert PlaceTile((0, 0), (0, -1), (1, -1)) not in erupting
