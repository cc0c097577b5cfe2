"""Palaces: who builds, their value, their supply and the once-per-turn rule."""

from tests.engine.java.helpers import game, palace, play, put, refused

VILLAGE4 = ("village D5", "village E5", "village E6", "village D6")


def village_of_four(seat=0):
    state = game(2, seat, *VILLAGE4)
    state.tile_placed = True
    put(state, seat, "D5")
    return state


def test_palace_value_limited_by_village_size():
    state = village_of_four()
    refused(state, 0, "build E5 6", "palace value")
    play(state, 0, "build E5 4")
    assert state.scores[0] == 2  # half the value at once


def test_palace_needs_the_highest_position():
    state = village_of_four()
    put(state, 1, "E6")
    refused(state, 0, "build E5 2", "highest position")  # tied on level 1
    play(state, 0, "rice F5")  # not in the village: changes nothing
    state.land.level["D5"] = 2  # as if D5 stood on a terrace
    play(state, 0, "build E5 2")


def test_palace_only_on_an_empty_village_space_and_one_per_city():
    state = village_of_four()
    refused(state, 0, "build D5 2", "palace")  # the developer's space
    play(state, 0, "build E5 2")
    refused(state, 0, "build D6 2", "one palace per city")


def test_palace_supply_is_limited():
    state = village_of_four()
    state.palace_supply[4] = 0
    refused(state, 0, "build E5 4", "supply")


def test_palace_not_enlarged_in_the_turn_it_was_built_and_once_per_turn():
    state = village_of_four()
    play(state, 0, "build E5 2")
    refused(state, 0, "enlarge E5 4", "once per palace per turn")
    state.turn_number += 1
    play(state, 0, "enlarge E5 4")
    assert state.land.palaces["E5"].values == [2, 4] and state.scores[0] == 1 + 2
    refused(state, 0, "enlarge E5 6", "once per palace per turn")
    state.turn_number += 1
    refused(state, 0, "enlarge E5 6", "palace value")
    play(state, 0, "village F6", "village F5")  # the city grows to 6
    play(state, 0, "enlarge E5 6")


def test_enlarging_may_skip_values_and_reopens_the_festival():
    state = village_of_four()
    palace(state, "E5", 2, festival=True)
    play(state, 0, "enlarge E5 4")
    assert state.land.palaces["E5"].festival is False


def test_split_city_keeps_its_value_and_the_other_part_may_get_a_palace():
    column = ("village E3", "village E4", "village E5", "village E6", "village E7", "rice F5")
    state = game(2, 0, *column)
    palace(state, "E3", 4)
    put(state, 0, "E7")
    play(state, 0, "double E5 F5 village=F5")  # E5 turns to rice: the city splits
    assert state.land.village_area("E3") == {"E3", "E4"}
    assert state.land.palaces["E3"].value == 4
    play(state, 0, "build E6 2")
    assert set(state.land.palaces) == {"E3", "E6"}
