"""Influence, resolution of surrounded settlements and the rulebook's examples
1-5, 8 and 9 (seats: 0 green, 1 red, 2 yellow, 3 blue)."""

import pytest

from engine.games.samurai.board import board_for
from engine.games.samurai.influence import influence, resolve, surrounded
from tests.engine.samurai.helpers import clear_board, game_in_play, lay, put_figures, sid

GREEN, RED, YELLOW, BLUE = range(4)
BOARD = board_for(4)


def _influence(tiles, settlement, figure):
    return influence(BOARD, tiles, BOARD.by_name[settlement], figure)


def test_example_1_symbol_tile_influences_its_own_figure():
    tiles = {BOARD.by_name["N13"]: (GREEN, "helmet4")}
    assert _influence(tiles, "O14", "helmet") == {GREEN: 4}
    assert _influence(tiles, "O14", "buddha") == {GREEN: 0}


def test_example_2_samurai_influences_every_figure():
    tiles = {BOARD.by_name["P13"]: (YELLOW, "samurai1")}
    for figure in ("helmet", "buddha", "rice"):
        assert _influence(tiles, "O14", figure) == {YELLOW: 1}


def test_example_3_symbol_tile_between_two_settlements():
    """A buddha 3 between O12 (buddha) and Edo (buddha, rice)."""
    tiles = {BOARD.by_name["O13"]: (GREEN, "buddha3")}
    assert _influence(tiles, "O12", "buddha") == {GREEN: 3}
    assert _influence(tiles, "O14", "buddha") == {GREEN: 3}
    assert _influence(tiles, "O14", "rice") == {GREEN: 0}


def test_example_4_ronin_influences_three_figures_of_two_settlements():
    """A red ronin on O11 touches the city O10 (helmet, rice) and O12 (buddha)."""
    tiles = {BOARD.by_name["O11"]: (RED, "ronin")}
    assert _influence(tiles, "O10", "helmet") == {RED: 1}
    assert _influence(tiles, "O10", "rice") == {RED: 1}
    assert _influence(tiles, "O12", "buddha") == {RED: 1}


def test_example_5_ship_influences_both_figures_of_a_city_from_the_sea():
    tiles = {BOARD.by_name["N10"]: (YELLOW, "ship2")}
    assert _influence(tiles, "O10", "helmet") == {YELLOW: 2}
    assert _influence(tiles, "O10", "buddha") == {YELLOW: 2}


def test_token_exchange_on_the_board_has_no_influence():
    tiles = {BOARD.by_name["N13"]: (RED, "token-exchange")}
    assert _influence(tiles, "O14", "helmet") == {RED: 0}


def test_influence_adds_up_every_tile_of_a_seat():
    tiles = {
        BOARD.by_name["N13"]: (RED, "helmet3"),
        BOARD.by_name["N14"]: (RED, "samurai2"),
        BOARD.by_name["O13"]: (BLUE, "rice4"),
    }
    assert _influence(tiles, "O14", "helmet") == {RED: 5, BLUE: 0}


def test_resolution_waits_for_every_land_neighbour_but_not_the_sea():
    edo = BOARD.edo
    land = BOARD.land_neighbors(edo)
    tiles = {n: (RED, "rice2") for n in land[:-1]}
    assert not surrounded(BOARD, tiles, edo)
    tiles[land[-1]] = (BLUE, "rice2")
    assert surrounded(BOARD, tiles, edo)
    o10 = BOARD.by_name["O10"]
    tiles = {n: (RED, "rice2") for n in BOARD.land_neighbors(o10)}
    assert surrounded(BOARD, tiles, o10)  # N9 and N10 (sea) stay empty


def test_highest_total_takes_the_figure_ties_and_zero_set_it_aside():
    tiles = _full_edo({"N13": (RED, "helmet3"), "N14": (BLUE, "helmet3"), "O13": (GREEN, "rice2")})
    assert resolve(BOARD, tiles, BOARD.edo, ["helmet", "buddha", "rice"]) == [
        ("helmet", None),  # red 3, blue 3: a tie
        ("buddha", None),  # nobody has any influence: a tie at zero
        ("rice", GREEN),
    ]


def _full_edo(tiles):
    """Edo surrounded: the tiles given plus token exchanges (no influence)."""
    layout = {BOARD.by_name[n]: t for n, t in tiles.items()}
    for n in BOARD.land_neighbors(BOARD.edo):
        layout.setdefault(n, (YELLOW, "token-exchange"))
    return layout


def test_example_9_blue_3_beats_red_2_on_the_helmet():
    tiles = _full_edo({"N13": (BLUE, "helmet3"), "N14": (RED, "samurai2"), "O13": (BLUE, "rice2")})
    assert _influence(tiles, "O14", "helmet") == {BLUE: 3, RED: 2, YELLOW: 0}
    assert resolve(BOARD, tiles, BOARD.edo, ["helmet"]) == [("helmet", BLUE)]


@pytest.fixture
def four():
    game = game_in_play(4)
    clear_board(game.state)
    game.state.figures[game.state.board.edo] = ["helmet", "buddha", "rice"]
    return game


def test_example_8_red_plays_ronin_and_samurai_2_and_takes_right_buddha_and_helmet(four):
    """The city O10 holds a helmet and the left buddha, the village Q11 the
    right buddha. Red closes both in one turn with the ronin (P10, touching
    both) and the samurai 2 (O11)."""
    state = four.state
    put_figures(state, {"O10": ["helmet", "buddha"], "Q11": ["buddha"], "O12": ["rice"]})
    lay(state, BLUE, {"O9": "buddha4"})
    lay(state, GREEN, {"P9": "helmet2", "Q10": "samurai1"})
    lay(state, YELLOW, {"P11": "rice3"})
    lay(state, RED, {"Q12": "ship1"})
    state.current = RED
    state.hands[RED] = ["samurai2", "ronin", "rice2", "ship2", "helmet3"]
    four.play(RED, "ronin P10")
    four.play(RED, "samurai2 O11")
    four.play(RED, "end")
    assert state.captured[RED] == {"helmet": 1, "buddha": 1, "rice": 0}
    assert state.captured[BLUE] == {"helmet": 0, "buddha": 1, "rice": 0}  # left buddha: 4 to 3
    assert state.figures[sid(state, "O10")] == [] and state.figures[sid(state, "Q11")] == []
    assert state.figures[sid(state, "O12")] == ["rice"]  # N12 is still empty
    assert state.to_act() == {YELLOW}


def test_example_9_green_takes_rice_yellow_right_buddha_blue_nothing(four):
    """City O10 (rice, left buddha) and village Q11 (right buddha) close when
    red lays a helmet 3 on P10: green's rice 3 wins the rice, blue and yellow
    tie at 1 on the left buddha (set aside), yellow's buddha 4 wins the right
    one against blue's ronin, and blue gets nothing."""
    state = four.state
    put_figures(state, {"O10": ["rice", "buddha"], "Q11": ["buddha"]})
    lay(state, GREEN, {"O9": "rice3"})
    lay(state, BLUE, {"O11": "samurai1", "Q10": "ronin"})
    lay(state, YELLOW, {"P9": "samurai1", "P11": "buddha4"})
    state.current = RED
    state.hands[RED] = ["helmet3", "samurai2", "ronin", "rice4", "ship2"]
    four.play(RED, "helmet3 P10")
    four.play(RED, "end")
    assert state.captured[GREEN] == {"helmet": 0, "buddha": 0, "rice": 1}
    assert state.captured[YELLOW] == {"helmet": 0, "buddha": 1, "rice": 0}
    assert state.captured[BLUE] == state.captured[RED] == {"helmet": 0, "buddha": 0, "rice": 0}
    assert state.set_aside == {"helmet": 0, "buddha": 1, "rice": 0}
