"""Setup, the mandatory tile, the last triple, final scoring and the winners."""

import pytest

from engine import Game
from engine.core.errors import IllegalMove
from engine.games.java.board import SPACES
from engine.games.java.state import JavaState
from tests.engine.java.helpers import game, hand, lay, palace, play, put


def test_setup_supplies_hands_and_faceup_card():
    for players in (2, 3, 4):
        state = JavaState.new(players, "setup")
        assert state.triples == 56 and state.irrigation_left == 16
        assert state.palace_supply == {2: 6, 4: 7, 6: 8, 8: 9, 10: 10}
        assert all(len(h) == 3 for h in state.hands)
        assert state.own_tiles == [{"double": 5, "rice": 3, "village": 2}] * players
        assert state.off_board == [12] * players and state.tokens == [3] * players
        assert state.faceup is not None
        assert len(state.deck) + 3 * players + 1 == 30


def test_start_player_comes_from_the_seed():
    starts = {JavaState.new(4, f"seed{i}").current for i in range(40)}
    assert starts == {0, 1, 2, 3}
    assert JavaState.new(4, "same").current == JavaState.new(4, "same").current


def test_turn_cannot_end_without_a_land_tile():
    state = game(2, 0)
    with pytest.raises(IllegalMove) as info:
        state.play(0, "end")
    assert info.value.rule == "mandatory land tile"
    play(state, 0, "rice E5", "end")
    assert state.current == 1 and state.ap_left == 6


def test_last_triple_starts_the_final_round_with_each_own_final_scoring():
    state = game(3, 0, "village E5", "village E6")
    palace(state, "E5", 2)
    put(state, 1, "E6")
    state.triples = 1
    play(state, 0, "triple H5 H6 I6 village=H5", "end")
    assert state.final_scored == [0] and state.scores == [0, 0, 0]
    play(state, 1, "end")  # no tile duty any more; seat 1 is first in E5's city
    assert state.scores == [0, 2, 0]
    assert not state.is_over()
    play(state, 2, "end")
    result = state.result()
    assert result is not None and result.winners == (1,)
    assert state.to_act() == frozenset()


def test_scored_players_may_still_join_festivals():
    state = game(2, 0, "village E5", "village E6", "village D5")
    palace(state, "E5", 4)
    put(state, 0, "E6")
    put(state, 1, "D5")
    state.faceup = "M"
    hand(state, 0, "M", "M")
    hand(state, 1, "M")
    state.triples = 1
    play(state, 0, "triple H5 H6 I6 village=H5", "end")
    assert state.final_scored == [0] and state.scores == [4, 0]  # tied first: full value
    play(state, 1, "festival E5 M")
    play(state, 0, "play M")  # seat 0, already scored, matches; seat 1 cannot raise
    assert state.is_over()
    assert state.scores == [4 + 1, 1 + 4]  # shared festival, then seat 1's own scoring


def test_equal_points_share_the_win():
    state = game(2, 0)
    state.triples = 1
    play(state, 0, "triple H5 H6 I6 village=H5", "end")
    play(state, 1, "end")
    assert state.result().winners == (0, 1)


def crowded(state: JavaState, *open_spaces: str, rice: int = 0) -> JavaState:
    """A board where only `open_spaces` may still take tiles (the rest is
    irrigation, which no tile covers), and each player has `rice` single tiles left."""
    state.land.irrigation = set(SPACES) - set(open_spaces)
    state.own_tiles = [{"double": 0, "rice": rice, "village": 0} for _ in state.own_tiles]
    return state


def test_when_no_land_tile_can_ever_fit_the_triples_are_set_aside_and_the_end_begins():
    state = crowded(game(2, 0), "H5", "H6")  # two spaces: no triple fits, no tile left
    play(state, 0, "end")
    assert state.triples == 0 and state.triples_set_aside == 56
    assert "set aside" in state.events[-2] and state.final_scored == [0]
    play(state, 1, "end")
    assert state.is_over() and state.result().reason == "no land tile fits any more"


def test_a_triple_kept_out_only_by_a_developer_still_fits_later():
    state = crowded(game(2, 0), "H5", "H6", "I6")
    lay(state.land, "rice H5", "rice H6", "rice I6")  # level 1 singles: a triple may lie on them
    put(state, 1, "H6")
    play(state, 0, "end")  # no tile can be laid now, so the duty is waived...
    assert state.triples == 56 and state.current == 1  # ...but the developer may move away


def test_own_tiles_that_still_fit_keep_the_game_going():
    state = crowded(game(2, 0), "H5", "H6", rice=1)
    play(state, 0, "rice H5", "end")
    assert state.triples == 56 and state.final_scored == []  # seat 1's rice fits H6
    play(state, 1, "rice H6", "end")  # a single never lies exactly on a single
    assert state.triples_set_aside == 56 and state.final_scored == [1]


def test_game_record_replays_to_the_same_state():
    game_ = Game.new("java", ["a", "b"], "replay")
    for text in ("triple F8 F9 G9 village=F8", "enter G9", "draw deck", "end"):
        game_.play(game_.state.current, text)
    again = Game.from_record(game_.to_record())
    assert again.state == game_.state
