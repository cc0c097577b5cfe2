"""Placement and exchange rules of a turn, and how turns pass."""

import pytest

from engine import IllegalMove
from engine.games.samurai.notation import EndTurn, PlayTile
from tests.engine.samurai.helpers import clear_board, game_in_play, lay, put_figures, sid


@pytest.fixture
def game():
    game = game_in_play(2)
    game.state.hands[0] = ["helmet4", "samurai3", "token-exchange", "ship1", "figure-exchange"]
    return game


def _refused(game, text, rule, seat=0):
    with pytest.raises(IllegalMove) as info:
        game.play(seat, text)
    assert info.value.rule == rule, str(info.value)
    return info.value


def test_tile_goes_on_an_empty_space(game):
    lay(game.state, 1, {"N13": "rice2"})
    error = _refused(game, "helmet4 N13", "tiles go on empty spaces")
    assert "N13 already holds a tile" in str(error)


def test_no_tile_on_a_settlement_even_emptied(game):
    _refused(game, "helmet4 O10", "no tiles on settlements")
    game.state.figures[sid(game.state, "O8")] = []
    _refused(game, "helmet4 O8", "no tiles on settlements")


def test_ships_only_and_always_at_sea(game):
    _refused(game, "ship1 N13", "ships only at sea")
    _refused(game, "helmet4 N9", "ships only at sea")
    game.play(0, "ship1 N9")
    game.play(0, "helmet4 N13")


def test_tile_must_be_behind_the_screen(game):
    error = _refused(game, "rice3 N13", "tiles from your hand")
    assert "no rice3" in str(error)


def test_one_normal_tile_per_turn(game):
    game.play(0, "helmet4 N13")
    error = _refused(game, "samurai3 N14", "one normal tile per turn")
    assert "already played helmet4" in str(error)
    lay(game.state, 0, {"P10": "rice2"})
    _refused(game, "token-exchange P10 P9", "one normal tile per turn")


def test_fast_tiles_join_the_normal_tile_in_any_order(game):
    game.play(0, "ship1 N9")
    game.play(0, "samurai3 N13")
    game.play(
        0,
        "figure-exchange O12 "
        + game.state.figures[sid(game.state, "O12")][0]
        + " Q9 "
        + game.state.figures[sid(game.state, "Q9")][0],
    )
    game.play(0, "end")
    assert game.state.to_act() == {1}


def test_legal_moves_after_the_normal_tile_hold_only_fast_tiles_and_end(game):
    game.play(0, "samurai3 N13")
    moves = game.state.legal_moves(0)
    tiles = {getattr(m, "tile", type(m).__name__) for m in moves}
    assert tiles == {"ship1", "FigureExchange", "EndTurn"}
    assert moves[-1] == EndTurn()


def test_at_least_one_tile_per_turn(game):
    _refused(game, "end", "at least one tile per turn")
    assert EndTurn() not in game.state.legal_moves(0)


def test_refill_to_five_from_own_pile_at_end_of_turn(game):
    state = game.state
    pile = list(state.piles[0])
    game.play(0, "helmet4 N13")
    game.play(0, "ship1 N9")
    assert len(state.hands[0]) == 3
    game.play(0, "end")
    assert len(state.hands[0]) == 5 and state.piles[0] == pile[2:]
    assert sorted(state.hands[0]) == sorted(
        ["samurai3", "token-exchange", "figure-exchange", *pile[:2]]
    )


def test_exchange_tiles_are_written_with_their_own_move(game):
    with pytest.raises(IllegalMove, match="write 'token-exchange"):
        game.play(0, "token-exchange N13")
    assert game.state._error(0, PlayTile("token-exchange", sid(game.state, "N13"))).rule == (
        "exchange tiles"
    )


# -- token exchange ("mouvement", example 7) ------------------------------------


def test_token_exchange_takes_the_place_of_own_tile_which_moves_at_once(game):
    state = game.state
    lay(state, 0, {"N13": "rice2"})
    game.play(0, "token-exchange N13 P10")
    assert state.tiles[sid(state, "N13")] == (0, "token-exchange")
    assert state.tiles[sid(state, "P10")] == (0, "rice2")


def test_example_7_token_exchange_may_replace_a_ship_which_goes_back_to_sea(game):
    state = game.state
    lay(state, 0, {"N9": "ship2"})
    _refused(game, "token-exchange N9 N13", "ships only at sea")
    game.play(0, "token-exchange N9 N10")
    assert state.tiles[sid(state, "N9")] == (0, "token-exchange")
    assert state.tiles[sid(state, "N10")] == (0, "ship2")


def test_token_exchange_only_replaces_own_tiles(game):
    lay(game.state, 1, {"N13": "rice2"})
    _refused(game, "token-exchange N13 P10", "token exchange replaces one of your tiles")
    _refused(game, "token-exchange N14 P10", "token exchange replaces one of your tiles")


def test_token_exchange_lifted_tile_goes_to_another_empty_legal_space(game):
    lay(game.state, 0, {"N13": "rice2"})
    lay(game.state, 1, {"P10": "rice3"})
    _refused(game, "token-exchange N13 N13", "token exchange moves a tile")
    _refused(game, "token-exchange N13 P10", "tiles go on empty spaces")
    _refused(game, "token-exchange N13 O10", "no tiles on settlements")
    _refused(game, "token-exchange N13 N9", "ships only at sea")


def test_token_exchange_is_a_normal_tile(game):
    lay(game.state, 0, {"N13": "rice2"})
    game.play(0, "token-exchange N13 P10")
    _refused(game, "helmet4 N14", "one normal tile per turn")


# -- figure exchange ("échange", example 6) -------------------------------------


@pytest.fixture
def swap_game(game):
    state = game.state
    clear_board(state)
    put_figures(
        state,
        {
            "O14": ["helmet", "buddha", "rice"],
            "O10": ["helmet", "rice"],
            "O8": ["buddha"],
            "Q9": ["rice"],
        },
    )
    return game


def test_example_6_figure_exchange_swaps_two_figures_between_settlements(swap_game):
    state = swap_game.state
    swap_game.play(0, "figure-exchange O10 helmet O8 buddha")
    assert state.figures[sid(state, "O10")] == ["buddha", "rice"]
    assert state.figures[sid(state, "O8")] == ["helmet"]
    assert state.figure_exchanges[0] == 1
    assert "figure-exchange" not in state.hands[0]
    assert all(code != "figure-exchange" for _, code in state.tiles.values())


def test_example_6_figure_exchange_never_leaves_two_equal_figures_in_a_city(swap_game):
    error = _refused(
        swap_game, "figure-exchange O10 helmet Q9 rice", "no two equal figures in a city or Edo"
    )
    assert "O10 would hold two rice" in str(error)


def test_figure_exchange_never_leaves_two_equal_figures_in_edo(swap_game):
    _refused(
        swap_game, "figure-exchange O14 helmet O10 rice", "no two equal figures in a city or Edo"
    )


def test_figure_exchange_of_equal_figures_is_allowed(swap_game):
    swap_game.play(0, "figure-exchange O14 helmet O10 helmet")


def test_figure_exchange_needs_two_settlements_holding_the_figures(swap_game):
    _refused(swap_game, "figure-exchange O10 helmet O10 rice", "figure exchange")
    error = _refused(swap_game, "figure-exchange O10 buddha O8 buddha", "figure exchange")
    assert "O10 holds no buddha" in str(error)


def test_figure_exchange_text_is_symmetric(swap_game):
    state = swap_game.state
    a = state.parse_syntax(0, "figure-exchange O8 buddha O10 helmet")
    b = state.parse_syntax(0, "figure-exchange O10 helmet O8 buddha")
    assert a == b and state.format_move(a) == state.format_move(b)


# -- passing --------------------------------------------------------------------


def test_seat_with_no_tile_left_passes(game):
    state = game.state
    state.hands[1], state.piles[1] = [], []
    game.play(0, "helmet4 N13")
    game.play(0, "end")
    assert state.to_act() == {0} and state.passed == [1]


def test_seat_whose_tiles_cannot_be_placed_passes(game):
    state = game.state
    clear_board(state)
    put_figures(state, {"O14": ["helmet", "buddha", "rice"]})  # nothing to swap with
    state.hands[1], state.piles[1] = ["figure-exchange"], []
    game.play(0, "helmet4 N13")
    game.play(0, "end")
    assert state.passed == [1] and state.to_act() == {0}


def test_game_ends_when_no_seat_has_a_tile_left(game):
    state = game.state
    state.hands[0], state.piles[0] = ["helmet4"], []
    state.hands[1], state.piles[1] = [], []
    game.play(0, "helmet4 N13")
    game.play(0, "end")
    assert state.result().reason == "no tiles left"
