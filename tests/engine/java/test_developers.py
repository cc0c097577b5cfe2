"""Developers: entering and leaving at the edge, moving by colour changes."""

from tests.engine.java.helpers import game, palace, play, put, refused


def test_entering_from_the_lowlands_costs_one_ap():
    state = game(2, 0, "rice G9")
    play(state, 0, "enter G9")
    assert state.ap_left == 5 and state.off_board[0] == 11


def test_entering_from_the_mountains_costs_two_ap():
    state = game(2, 0, "rice J1")
    play(state, 0, "enter J1")
    assert state.ap_left == 4


def test_edge_space_touching_both_costs_the_cheaper_side():
    state = game(2, 0, "rice B4")  # touches mountain A4 and lowland A5
    play(state, 0, "enter B4")
    assert state.ap_left == 5


def test_entering_only_at_the_edge_and_on_land_tiles():
    state = game(2, 0, "rice E5", "rice D5")
    refused(state, 0, "enter E5", "enter and leave")
    refused(state, 0, "enter G9", "enter and leave")  # no tile there yet


def test_entering_and_leaving_on_an_overhanging_tile():
    state = game(2, 0, "triple J0 J1 K1 village=J1")
    play(state, 0, "enter J0")  # the ring space is a mountain: 2 AP
    assert state.ap_left == 4
    play(state, 0, "leave J0")
    assert state.ap_left == 2 and state.off_board[0] == 12


def test_leaving_costs_like_entering():
    state = game(2, 0, "rice G9")
    put(state, 0, "G9")
    play(state, 0, "leave G9")
    assert state.ap_left == 5 and "G9" not in state.land.developers


def test_one_developer_per_space():
    state = game(2, 0, "rice G9", "rice F9")
    put(state, 1, "G9")
    refused(state, 0, "enter G9", "one developer per space")
    put(state, 0, "F9")
    refused(state, 0, "move F9 G9", "one developer per space")


def test_moving_without_colour_change_is_free_and_levels_do_not_count():
    state = game(2, 0, "triple E5 E6 F5 village=F5", "rice D6")
    play(state, 0, "rice E5")  # E5 is now on level 2
    put(state, 0, "D6")
    play(state, 0, "move D6 E5")
    assert state.ap_left == 5  # only the tile was paid


def test_moving_costs_one_ap_per_colour_change_on_the_cheapest_path():
    # rice D5 - village E5 - rice F5 straight, or around over rice D6 E6 F6
    state = game(2, 0, "rice D5", "village E5", "rice F5")
    put(state, 0, "D5")
    play(state, 0, "move D5 F5")
    assert state.ap_left == 4  # two changes
    state.ap_left = 6
    play(state, 0, "rice D6", "rice E6", "rice F6")
    play(state, 0, "move F5 D5")
    assert state.ap_left == 3  # the all-rice way around is free


def test_opponents_block_and_own_developers_may_be_passed():
    state = game(2, 0, "rice D5", "rice E5", "rice F5")
    put(state, 0, "D5")
    put(state, 1, "E5")
    refused(state, 0, "move D5 F5", "movement")
    state.land.developers["E5"] = 0
    play(state, 0, "move D5 F5")


def test_developers_never_cross_or_stand_on_palaces_or_leave_land():
    state = game(2, 0, "rice D5", "village E5", "village E4", "rice F5")
    palace(state, "E5", 2)
    put(state, 0, "D5")
    refused(state, 0, "move D5 E5", "one developer per space")
    refused(state, 0, "move D5 F5", "movement")  # only through the palace
    refused(state, 0, "move D5 G5", "movement")  # no tile on G5


def test_an_action_leaves_one_ap_for_the_mandatory_tile():
    state = game(2, 0, "rice J1")
    state.ap_left = 2
    refused(state, 0, "enter J1", "action points")
