"""Setup, the mandatory tile, the last triple, final scoring and the winners."""

import pytest

from engine import Game
from engine.core.errors import IllegalMove
from engine.games.java.state import JavaState
from tests.engine.java.helpers import game, hand, palace, play, put


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


def test_game_record_replays_to_the_same_state():
    game_ = Game.new("java", ["a", "b"], "replay")
    for text in ("triple F8 F9 G9 village=F8", "enter G9", "draw deck", "end"):
        game_.play(game_.state.current, text)
    again = Game.from_record(game_.to_record())
    assert again.state == game_.state
