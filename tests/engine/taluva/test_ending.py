"""Elimination, the instant win, the end when tiles run out, and both variants."""

import pytest

from engine import EngineError
from engine.games.taluva.island import HUT, TEMPLE, TOWER
from engine.games.taluva.state import INSTANT_WIN, LAST_STANDING, TILES_OUT, TaluvaState
from tests.engine.taluva.helpers import game, put, to_build, to_lay

ISLAND = ("tile 0,0 0,-1 1,-1", "tile 1,0 2,-1 2,0")


def stranded(state: TaluvaState, seat: int) -> None:
    """No huts left and no settlement: nothing this seat could build."""
    state.stocks[seat] = {HUT: 0, TEMPLE: 3, TOWER: 2}


def test_a_player_who_cannot_build_is_eliminated_and_the_game_goes_on():
    state = game(3, *ISLAND)
    put(state, 0, HUT, (0, -1))
    stranded(state, 0)
    to_lay(state, 0)
    state.play(0, "tile 3,-1 3,-2 4,-2")
    assert state.eliminated == [0]
    assert state.current == 1 and state.phase == "tile"
    assert state.island.cells[(0, -1)].owner == 0  # their buildings stay
    assert state.result() is None


def test_eliminated_players_are_skipped():
    state = game(3, *ISLAND)
    state.eliminated = [1]
    to_build(state, 0)
    state.play(0, "hut 2,0")
    assert state.current == 2


def test_the_last_player_standing_wins():
    state = game(2, *ISLAND)
    stranded(state, 1)
    to_lay(state, 1)
    state.play(1, "tile 3,-1 3,-2 4,-2")
    result = state.result()
    assert result.reason == LAST_STANDING and result.winners == (0,)
    assert result.unranked == (1,)


def test_placing_every_building_of_two_kinds_wins_at_once():
    state = to_build(game(3, *ISLAND), 0)
    state.stocks[0] = {HUT: 1, TEMPLE: 0, TOWER: 3}
    state.play(0, "hut 2,0")
    result = state.result()
    assert result.reason == INSTANT_WIN and result.winners == (0,)
    assert state.to_act() == frozenset()


def _last_tile(players: int, **options) -> TaluvaState:
    state = to_build(game(players, *ISLAND, **options), 0)
    state.pile = []
    return state


def test_when_tiles_run_out_most_temples_win_then_towers_then_huts():
    state = _last_tile(3)
    state.stocks[0] = {HUT: 5, TEMPLE: 2, TOWER: 2}  # 1 temple, 0 towers
    state.stocks[1] = {HUT: 15, TEMPLE: 2, TOWER: 1}  # 1 temple, 1 tower
    state.stocks[2] = {HUT: 0, TEMPLE: 3, TOWER: 1}  # 0 temples
    state.play(0, "hut 2,0")  # seat 0 now has 16 huts built
    result = state.result()
    assert result.reason == TILES_OUT
    assert result.ranking == ((1,), (0,), (2,))


def test_huts_decide_equal_temples_and_towers_and_crushed_huts_count():
    state = _last_tile(2)
    state.stocks[0] = {HUT: 10, TEMPLE: 3, TOWER: 2}
    state.stocks[1] = {HUT: 9, TEMPLE: 3, TOWER: 2}  # e.g. one of these was crushed
    state.play(0, "hut 2,0")  # 11 built each
    assert state.result().ranking == ((0, 1),)


def test_eliminated_players_do_not_rank():
    state = _last_tile(3)
    state.eliminated = [2]
    state.stocks[2] = {HUT: 0, TEMPLE: 0, TOWER: 2}  # would have led
    state.play(0, "hut 2,0")
    result = state.result()
    assert 2 not in {s for group in result.ranking for s in group}
    assert result.unranked == (2,)


def test_ranking_variant_plays_on_after_a_win_and_ranks_everyone():
    state = to_build(game(3, *ISLAND, ranking=True), 0)
    state.stocks[0] = {HUT: 1, TEMPLE: 0, TOWER: 3}
    state.play(0, "hut 2,0")
    assert state.finished == [0] and state.result() is None and state.current == 1
    stranded(state, 1)
    to_lay(state, 1)
    state.play(1, "tile 3,-1 3,-2 4,-2")  # seat 1 is eliminated: seat 2 is left alone
    assert state.result().ranking == ((0,), (2,), (1,))


def test_ranking_variant_ranks_the_first_eliminated_last():
    state = _last_tile(4, ranking=True)
    state.eliminated = [3, 1]
    state.play(0, "hut 2,0")
    ranking = state.result().ranking
    assert ranking[-2:] == ((1,), (3,))


def test_team_variant_wins_with_two_kinds_and_the_partners_one():
    state = to_build(game(4, *ISLAND, teams=True), 0)
    state.stocks[0] = {HUT: 1, TEMPLE: 0, TOWER: 2}
    state.play(0, "hut 2,0")
    assert state.result() is None  # partner (seat 2) has no complete kind yet
    state.stocks[2] = {HUT: 3, TEMPLE: 0, TOWER: 2}
    to_build(state, 0)
    state.stocks[0][HUT] = 1
    state.play(0, "hut 0,-1")
    result = state.result()
    assert result.reason == INSTANT_WIN and result.ranking == ((0, 2), (1, 3))


def test_team_variant_adds_partners_buildings_when_tiles_run_out():
    state = _last_tile(4, teams=True)
    state.stocks[1] = {HUT: 20, TEMPLE: 2, TOWER: 2}  # one temple
    state.stocks[3] = {HUT: 20, TEMPLE: 3, TOWER: 2}
    state.stocks[0] = {HUT: 20, TEMPLE: 3, TOWER: 2}
    state.stocks[2] = {HUT: 20, TEMPLE: 2, TOWER: 1}  # one temple, one tower
    state.play(0, "hut 2,0")
    assert state.result().ranking == ((0, 2), (1, 3))


def test_team_variant_ends_when_both_partners_are_out():
    state = game(4, *ISLAND, teams=True)
    state.eliminated = [1]
    stranded(state, 3)
    to_lay(state, 3)
    state.play(3, "tile 3,-1 3,-2 4,-2")
    assert state.result().ranking == ((0, 2), (1, 3))


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [(3, {"teams": True}, "for 4 players"), (4, {"teams": True, "ranking": True}, "combine")],
)
def test_variant_options_fit_the_player_count(players, options, message):
    with pytest.raises(EngineError, match=message):
        TaluvaState.new(players, "s", options)
