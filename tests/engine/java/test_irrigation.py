"""Irrigation: where it goes, and pond scoring when surrounded."""

from tests.engine.java.helpers import game, play, put, refused

SHORE_BUT_K6 = ("rice L5", "rice L4", "rice K4", "rice J4", "rice J5")


def test_irrigation_never_on_the_edge_on_a_tile_or_on_irrigation():
    state = game(2, 0, "rice E5")
    state.tile_placed = True
    refused(state, 0, "irrigate B5", "irrigation")
    refused(state, 0, "irrigate E5", "irrigation")
    refused(state, 0, "irrigate F3", "irrigation")
    play(state, 0, "irrigate E6")
    assert state.ap_left == 5 and state.irrigation_left == 15


def test_irrigation_does_not_count_as_the_land_tile():
    state = game(2, 0)
    play(state, 0, "irrigate E6")
    refused(state, 0, "end", "mandatory land tile")


def test_closed_pond_scores_three_per_space_for_the_highest_position_around():
    state = game(2, 0, *SHORE_BUT_K6, "rice L6", "rice J6")
    put(state, 1, "J4")  # seat 1 dominates the shore
    play(state, 0, "irrigate K5", "irrigate K6")  # a pond of two, still open at K7
    assert state.scores == [0, 0] and not state.land.scored_ponds
    play(state, 0, "rice K7")
    assert state.scores == [0, 6]
    assert state.land.scored_ponds == {"K5", "K6"}


def test_pond_with_no_highest_position_scores_nothing_and_only_once():
    state = game(2, 0, *SHORE_BUT_K6)
    put(state, 0, "L5")
    put(state, 1, "J5")
    play(state, 0, "irrigate K5", "rice K6")
    assert state.scores == [0, 0] and "K5" in state.land.scored_ponds


def test_hole_filled_later_with_irrigation_scores_at_once():
    state = game(2, 0, *SHORE_BUT_K6, "rice K6")
    put(state, 1, "K6")
    state.tile_placed = True
    play(state, 0, "irrigate K5")
    assert state.scores == [0, 3]  # the player who closed it need not score
