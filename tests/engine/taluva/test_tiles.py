"""Laying tiles: the first tile, growing the island, and eruptions, with every
forbidden placement the rulebook pictures."""

import pytest

from engine import IllegalMove
from engine.games.taluva.island import HUT, TEMPLE, TOWER
from engine.games.taluva.notation import parse_move
from engine.games.taluva.state import TILES_BY_PLAYERS, TaluvaState
from engine.games.taluva.tiles import full_set
from tests.engine.taluva.helpers import game, island_of, lay_on, put, to_lay

# Three tiles whose volcanoes meet in one triangle: 0,0, 1,-1 and 1,0.
THREE_VOLCANOES = ("tile 0,0 0,1 -1,1", "tile 1,-1 1,-2 2,-2", "tile 1,0 2,0 1,1")


def error_of(island, text):
    return island.placement_error(parse_move(text))


def test_the_box_holds_48_tiles_and_each_player_count_uses_its_share():
    assert len(full_set()) == 48
    assert len(TaluvaState.new(2, "s").pile) + 1 == 24
    assert len(TaluvaState.new(2, "s", {"tiles": 36}).pile) + 1 == 36
    for players, count in TILES_BY_PLAYERS.items():
        assert len(TaluvaState.new(players, "s").pile) + 1 == count


def test_tiles_option_is_only_for_two_players():
    from engine import EngineError

    with pytest.raises(EngineError, match="for 2 players"):
        TaluvaState.new(3, "s", {"tiles": 36})


def test_first_tile_lies_anywhere_so_its_volcano_sets_the_origin():
    state = TaluvaState.new(2, "s")
    assert len(state.legal_moves(0)) == 6
    assert all(m.volcano == (0, 0) for m in state.legal_moves(0))
    with pytest.raises(IllegalMove, match="put its volcano on 0,0"):
        state.play(0, "tile 3,3 3,2 4,2")


def test_a_tile_cannot_be_turned_over():
    state = TaluvaState.new(2, "s")
    with pytest.raises(IllegalMove) as info:
        state.play(0, "tile 0,0 1,-1 0,-1")
    assert info.value.rule == "tile handedness"
    assert "tile 0,0 0,-1 1,-1" in info.value.reason


def test_the_three_spaces_must_form_a_tile():
    state = TaluvaState.new(2, "s")
    with pytest.raises(IllegalMove, match="each must touch the other two"):
        state.play(0, "tile 0,0 0,-1 0,-2")


def test_a_tile_on_the_table_must_touch_the_island():
    island = island_of("tile 0,0 0,-1 1,-1")
    assert "touch the island" in str(error_of(island, "tile 5,5 5,4 6,4"))
    assert error_of(island, "tile 2,-1 2,-2 3,-2") is None  # 2,-1 touches 1,-1


def test_growing_the_island_may_leave_holes():
    island = island_of("tile 0,0 0,-1 1,-1", "tile 2,-1 2,-2 3,-2")
    # 2,0 touches only by one side and leaves 1,0 open inside the island.
    assert error_of(island, "tile 2,0 3,0 2,1") is None


def test_no_gap_a_tile_cannot_lie_half_on_the_island():
    island = island_of("tile 0,0 0,-1 1,-1")
    error = error_of(island, "tile 0,0 1,-1 1,0")
    assert error.rule == "eruption: no gap" and "1,0" in error.reason


def test_eruption_volcano_must_cover_a_volcano():
    island = island_of(*THREE_VOLCANOES)
    error = error_of(island, "tile 0,1 0,0 1,0")
    assert error.rule == "eruption: volcano on volcano"


def test_eruption_volcano_must_point_another_way():
    island = island_of(*THREE_VOLCANOES)
    error = error_of(island, "tile 0,0 0,1 -1,1")
    assert error.rule == "eruption: volcano direction"


def test_eruption_spaces_must_be_at_one_level():
    island = island_of(*THREE_VOLCANOES)
    lay_on(island, "tile 0,0 1,-1 1,0")  # level 2 over the triangle
    # Over 0,0 (level 2), 0,1 (level 1) and 1,0 (level 2): not flat.
    error = error_of(island, "tile 0,0 1,0 0,1")
    assert error.rule == "eruption: no gap" and "level" in error.reason


def test_eruption_may_cover_two_or_three_volcanoes():
    island = island_of(*THREE_VOLCANOES)
    assert error_of(island, "tile 0,0 1,-1 1,0") is None
    lay_on(island, "tile 0,0 1,-1 1,0")
    assert island.cells[(1, 0)].level == 2


@pytest.mark.parametrize("kind", [TEMPLE, TOWER])
def test_eruption_never_covers_a_temple_or_tower(kind):
    state = game(2, "tile 0,0 0,-1 1,-1", "tile 1,0 2,-1 2,0")
    put(state, 0, HUT, (0, -1))
    put(state, 0, kind, (1, -1))
    to_lay(state, 1)
    with pytest.raises(IllegalMove) as info:
        state.play(1, "tile 0,0 1,-1 1,0")
    assert info.value.rule == "eruption: covering buildings"


def test_eruption_never_covers_a_whole_settlement():
    state = game(2, "tile 0,0 0,-1 1,-1", "tile 1,0 2,-1 2,0")
    put(state, 0, HUT, (1, -1))
    to_lay(state, 1)
    with pytest.raises(IllegalMove) as info:
        state.play(1, "tile 0,0 1,-1 1,0")
    assert info.value.rule == "eruption: whole settlement"


def test_eruption_may_split_a_settlement_and_crushed_huts_stay_counted():
    state = game(2, "tile 0,0 0,-1 1,-1", "tile 1,0 2,-1 2,0")
    put(state, 0, HUT, (0, -1), (1, -1), (2, -1))  # one settlement of three
    to_lay(state, 1)
    state.play(1, "tile 1,0 1,-1 2,-1")  # crushes 1,-1 and 2,-1, keeps 0,-1
    assert state.island.cells[(1, -1)].building is None
    assert state.stocks[0][HUT] == 17  # the crushed huts do not come back
    assert state.result() is None


def test_laying_a_tile_twice_in_a_turn_is_refused():
    state = TaluvaState.new(2, "s")
    state.play(0, "tile 0,0 0,-1 1,-1")
    with pytest.raises(IllegalMove, match="now build"):
        state.play(0, "tile 1,0 2,-1 2,0")
