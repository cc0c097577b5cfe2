"""Land tiles: supply, shapes, stacking and overhang."""

from engine.core.errors import IllegalMove
from engine.games.java import legal
from engine.games.java.board import FOOTPRINTS
from engine.games.java.notation import PlaceTile
from engine.games.java.tiles import TILE_SIZE
from tests.engine.java.helpers import game, palace, play, put, refused


def test_a_tile_costs_one_ap_and_raises_the_level():
    state = game(2, 0, "triple E5 E6 F5 village=E5")
    play(state, 0, "rice E5")
    assert state.ap_left == 5 and state.land.level["E5"] == 2
    assert state.land.face["E5"] == "R"


def test_triple_is_a_triangle_of_mutually_adjacent_spaces():
    state = game()
    refused(state, 0, "triple E5 E6 E7 village=E5", "tile shape")
    refused(state, 0, "double E5 E7 village=E5", "tile shape")


def test_tile_must_lie_flat():
    state = game(2, 0, "rice E5")
    error = refused(state, 0, "triple E5 E6 F5 village=E6", "stacking")
    assert "flat" in error.reason


def test_tile_never_exactly_on_a_tile_of_the_same_size():
    state = game(2, 0, "triple E5 E6 F5 village=E5", "double D5 D6 village=D5", "rice C5")
    refused(state, 0, "triple E5 E6 F5 village=F5", "stacking")
    refused(state, 0, "double D5 D6 village=D6", "stacking")
    refused(state, 0, "rice C5", "stacking")


def test_tile_may_lie_on_a_tile_of_another_size_or_on_several_tiles():
    state = game(2, 0, "triple E5 E6 F5 village=E5", "triple D5 D6 C6 village=D5")
    play(state, 0, "double E5 E6 village=E6")  # a double on part of a triple
    play(state, 0, "double D5 D6 village=D6")  # on another triple
    play(state, 0, "triple D5 D6 E6 village=E6")  # a triple across two doubles
    assert [state.land.level[c] for c in ("D5", "D6", "E6", "E5")] == [3, 3, 3, 2]


def test_tile_never_covers_developer_irrigation_or_palace():
    state = game(2, 0, "village E5", "village E6", "rice D5")
    put(state, 1, "D5")
    palace(state, "E6", 2)
    refused(state, 0, "rice D5", "stacking")
    refused(state, 0, "rice E6", "stacking")
    refused(state, 0, "double F3 F4 village=F4", "stacking")  # printed irrigation


def test_a_single_tile_on_printed_irrigation_is_told_it_is_irrigation():
    """Not that single tiles never overhang: F3 is inside central Java."""
    error = refused(game(), 0, "rice F3", "stacking")
    assert error.reason == "F3 is irrigation, which is never covered"


def test_tile_never_joins_two_cities():
    state = game(2, 0, "village E5", "village E6", "village G5", "village G6")
    palace(state, "E5", 2)
    palace(state, "G5", 2)
    refused(state, 0, "village F5", "cities")
    play(state, 0, "rice F5")  # rice between them joins nothing


def test_the_legal_tiles_next_to_two_cities_are_those_the_rules_accept():
    """The list skips its search wherever a new village cannot touch two
    cities; next to two of them it must agree with the rules, tile by tile."""
    state = game(2, 0, "village E5", "village E6", "village G5", "village G6")
    palace(state, "E5", 2)
    palace(state, "G5", 2)
    listed = legal.tile_moves(state, 0)
    for kind in ("triple", "double", "rice", "village"):
        for cells in FOOTPRINTS[TILE_SIZE[kind]]:
            if "F5" not in cells:
                continue
            for village in cells if kind in ("triple", "double") else (None,):
                move = PlaceTile(kind, cells, village)
                try:
                    state.copy().play(0, state.format_move(move))
                except IllegalMove:
                    assert move not in listed, move
                else:
                    assert move in listed, move
    assert PlaceTile("village", ("F5",), None) not in listed
    assert PlaceTile("rice", ("F5",), None) in listed


def test_tile_may_join_a_village_to_a_city():
    state = game(2, 0, "village E5", "village E6", "village G6")
    palace(state, "E5", 2)
    play(state, 0, "village F5")
    assert state.land.village_area("E5") == {"E5", "E6", "F5", "G6"}


def test_overhang_costs_one_ap_per_ring_space_and_later_tiles_pay_nothing():
    state = game(2, 0)
    play(state, 0, "triple J0 J1 K1 village=J1")  # J0 is a mountain ring space
    assert state.ap_left == 4
    state.ap_left = 6
    play(state, 0, "double J0 J1 village=J0")  # on the overhanging tile: no extra cost
    assert state.ap_left == 5 and state.land.level["J0"] == 2


def test_single_tiles_never_overhang():
    state = game(2, 0, "triple J0 J1 K1 village=J1")
    error = refused(state, 0, "rice J0", "tile shape")
    assert "never overhang" in error.reason


def test_a_tile_needs_a_space_in_central_java():
    state = game(2, 0)
    refused(state, 0, "double J0 K0 village=K0", "tile shape")


def test_own_supply_runs_out():
    state = game(2, 0)
    state.own_tiles[0]["village"] = 0
    refused(state, 0, "village E5", "supply")


def test_tiles_near_some_spaces_are_the_legal_tiles_covering_one_of_them():
    state = game(2, 0, "triple E5 E6 F5 village=E5", "double D5 D6 village=D5")
    put(state, 0, "E5")
    near = {"E5", "D6", "B2"}
    every = legal.tile_moves(state, 0)
    assert legal.tile_moves(state, 0, near) == [m for m in every if any(c in near for c in m.cells)]
    assert 0 < len(legal.tile_moves(state, 0, near)) < len(every)
