"""The four build actions and their conditions."""

import pytest

from engine import IllegalMove
from engine.games.taluva.island import HUT, TEMPLE, TOWER
from engine.games.taluva.notation import Extend
from tests.engine.taluva.helpers import game, lay_on, put, raise_to, to_build

# Four level-1 tiles, jungle on the left and sand on the right of each volcano:
# jungle 0,-1 2,-1 -1,2 1,2; sand 1,-1 2,0 -1,1 0,2; volcanoes 0,0 1,0 0,1 1,1.
ISLAND = (
    "tile 0,0 0,-1 1,-1",
    "tile 1,0 2,-1 2,0",
    "tile 0,1 -1,2 -1,1",
    "tile 1,1 1,2 0,2",
)


@pytest.fixture
def state():
    return to_build(game(2, *ISLAND), 0)


def refusal(state, text, seat=0):
    with pytest.raises(IllegalMove) as info:
        state.play(seat, text)
    return info.value


def test_new_settlement_hut_on_an_empty_level_one_space(state):
    state.play(0, "hut 2,0")
    assert state.island.cells[(2, 0)].building == HUT and state.stocks[0][HUT] == 19


def test_new_settlement_only_on_level_one(state):
    raise_to(state, 2, (2, 0))
    assert refusal(state, "hut 2,0").rule == "new settlement"


def test_new_settlement_must_not_touch_own_buildings(state):
    put(state, 0, HUT, (1, -1))
    assert refusal(state, "hut 2,-1").rule == "new settlement"


def test_new_settlement_may_touch_other_players_buildings(state):
    put(state, 1, HUT, (1, -1))
    state.play(0, "hut 2,-1")


def test_nobody_builds_on_a_volcano(state):
    assert "volcano" in refusal(state, "hut 0,0").reason


def test_buildings_only_on_empty_spaces_of_the_island(state):
    put(state, 1, HUT, (2, 0))
    assert "already holds" in refusal(state, "hut 2,0").reason
    assert "no land" in refusal(state, "hut 9,9").reason


def test_temple_needs_a_settlement_of_three_spaces(state):
    put(state, 0, HUT, (1, -1), (2, -1))
    assert refusal(state, "temple 2,0").rule == "temple"
    put(state, 0, HUT, (0, -1))
    state.play(0, "temple 2,0")
    assert state.island.cells[(2, 0)].building == TEMPLE


def test_temple_may_stand_on_any_level(state):
    put(state, 0, HUT, (1, -1), (2, -1), (0, -1))
    raise_to(state, 2, (2, 0))
    state.play(0, "temple 2,0")


def test_one_temple_per_settlement(state):
    put(state, 0, HUT, (1, -1), (2, -1))
    put(state, 0, TEMPLE, (0, -1))
    assert refusal(state, "temple 2,0").rule == "temple"


def test_temple_may_join_a_settlement_that_has_a_temple(state):
    lay_on(state.island, "tile 3,1 2,1 3,0")  # jungle 2,1 and sand 3,0 beside 2,0
    put(state, 0, HUT, (0, -1), (1, -1), (2, -1))  # three spaces, no temple
    put(state, 0, HUT, (2, 1))
    put(state, 0, TEMPLE, (3, 0))  # a second settlement, with its temple
    state.play(0, "temple 2,0")  # next to both: joins them
    (joined,) = state.island.settlements(0)
    assert joined.temples == 2 and len(joined.spaces) == 6


def test_tower_needs_level_three(state):
    put(state, 0, HUT, (2, -1))
    raise_to(state, 2, (2, 0))
    assert refusal(state, "tower 2,0").rule == "tower"
    raise_to(state, 3, (2, 0))
    state.play(0, "tower 2,0")
    assert state.island.cells[(2, 0)].building == TOWER


def test_tower_must_stand_next_to_own_settlement(state):
    put(state, 1, HUT, (2, -1))
    raise_to(state, 3, (2, 0))
    assert refusal(state, "tower 2,0").rule == "tower"


def test_one_tower_per_settlement(state):
    put(state, 0, HUT, (1, -1))
    raise_to(state, 3, (2, -1), (2, 0))
    put(state, 0, TOWER, (2, -1))
    assert refusal(state, "tower 2,0").rule == "tower"


def test_extend_covers_every_adjacent_space_of_the_terrain_one_hut_per_level(state):
    """The rulebook's example: two jungles at level 1 and one at level 3 take 5 huts;
    a jungle not next to the settlement stays empty."""
    lay_on(state.island, "tile 3,0 3,-1 4,-1")  # jungle 3,-1
    lay_on(state.island, "tile 2,-3 1,-2 1,-3")  # jungle 1,-2
    raise_to(state, 3, (1, -2))
    put(state, 0, HUT, (1, -1), (2, -1))  # a settlement of two spaces
    state.play(0, "extend 2,-1 jungle")
    cells = state.island.cells
    assert [cells[s].huts for s in ((0, -1), (3, -1), (1, -2))] == [1, 1, 3]
    assert cells[(-1, 2)].building is None  # jungle far from the settlement
    assert state.stocks[0][HUT] == 20 - 2 - 5


def test_extend_needs_every_hut_it_takes(state):
    put(state, 0, HUT, (1, -1))
    raise_to(state, 3, (2, -1))
    state.stocks[0][HUT] = 3  # jungle needs 1 + 3 = 4
    error = refusal(state, "extend 1,-1 jungle")
    assert error.rule == "extension" and "needs 4 huts" in error.reason


def test_extend_needs_an_empty_space_of_that_terrain(state):
    put(state, 0, HUT, (1, -1))
    assert "no empty lake" in refusal(state, "extend 1,-1 lake").reason


def test_extend_only_your_own_settlement(state):
    put(state, 1, HUT, (1, -1))
    assert refusal(state, "extend 1,-1 jungle").rule == "extension"


def test_extend_may_name_any_space_of_the_settlement(state):
    put(state, 0, HUT, (1, -1), (2, -1))
    move = state.parse_move(0, "extend 2,-1 j")
    assert move == Extend((1, -1), "jungle")
    assert state.format_move(move) == "extend 1,-1 jungle"


def test_extending_may_join_settlements(state):
    lay_on(state.island, "tile 3,1 2,1 3,0")
    put(state, 0, HUT, (2, -1), (2, 1))
    assert len(state.island.settlements(0)) == 2
    state.play(0, "extend 2,-1 sand")  # 2,0 and 1,-1; 2,0 touches 2,1
    (joined,) = state.island.settlements(0)
    assert joined.spaces == {(2, -1), (2, 0), (1, -1), (2, 1)}


def test_building_comes_after_the_tile(state):
    state.phase = "tile"
    assert "first lay your tile" in refusal(state, "hut 2,0").reason
