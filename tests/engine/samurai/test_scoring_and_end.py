"""The end of the game and the winner, with the rulebook's examples 10 and 11
(seats: 0 green, 1 red, 2 yellow, 3 blue)."""

from engine.games.samurai.scoring import final_result, shogunates
from tests.engine.samurai.helpers import clear_board, game_in_play, lay, put_figures

GREEN, RED, YELLOW, BLUE = range(4)


def _captured(*rows):
    return [dict(zip(("helmet", "buddha", "rice"), row, strict=True)) for row in rows]


def test_shogun_needs_strictly_more_than_every_other_seat():
    captured = _captured((3, 2, 0), (3, 1, 0), (0, 1, 1))
    assert shogunates(captured) == [["buddha"], [], ["rice"]]
    assert shogunates(_captured((0, 0, 0), (0, 0, 0))) == [[], []]


def test_example_10_seats_without_a_shogunate_are_out_then_figures_outside_it():
    """Yellow has no majority and is out; green (rice) wins with 7 figures
    outside its shogunate, blue (helmets) is second and red (buddhas) third."""
    captured = _captured((3, 4, 5), (2, 5, 1), (3, 2, 3), (5, 2, 3))
    result = final_result(captured, "four or more figures set aside")
    assert shogunates(captured) == [["rice"], ["buddha"], [], ["helmet"]]
    assert result.ranking == ((GREEN,), (BLUE,), (RED,))
    assert result.unranked == (YELLOW,)
    assert result.scores[GREEN]["outside_shogunate"] == 7


def test_example_11_tie_outside_the_shogunate_goes_to_most_figures():
    """Blue and green are out; red (helmets) and yellow (buddhas) both have 3
    figures outside their shogunate; red has more figures in all and wins."""
    captured = _captured((1, 1, 2), (4, 1, 2), (1, 3, 2), (2, 2, 2))
    result = final_result(captured, "a figure type has left the board")
    assert result.ranking == ((RED,), (YELLOW,))
    assert set(result.unranked) == {GREEN, BLUE}
    assert result.scores[RED]["outside_shogunate"] == result.scores[YELLOW]["outside_shogunate"]


def test_two_shogunates_win_at_once():
    captured = _captured((4, 4, 0), (3, 0, 9), (0, 3, 1))
    result = final_result(captured, "no tiles left")
    assert result.winners == (0,)
    assert result.ranking == ((0,), (1,))  # the other shogun ranks after
    assert result.unranked == (2,)


def test_equal_on_every_criterion_share_the_win():
    captured = _captured((3, 1, 1), (1, 3, 1), (2, 2, 1))
    result = final_result(captured, "no tiles left")
    assert result.winners == (0, 1) and result.unranked == (2,)


def test_nobody_with_a_majority_most_figures_wins():
    captured = _captured((2, 2, 1), (2, 2, 3), (1, 1, 3))
    assert shogunates(captured) == [[], [], []]
    result = final_result(captured, "no tiles left")
    assert result.ranking == ((1,), (0, 2))
    assert result.unranked == ()


def _closing_game(figures, set_aside=0, first="rice2"):
    """Two players; seat 1 has tiles on five of Edo's land neighbours (`first`
    on N13) and seat 0 closes Edo with a helmet 4 on P14."""
    game = game_in_play(2)
    state = game.state
    clear_board(state)
    put_figures(state, figures)
    state.set_aside["rice"] = set_aside
    lay(state, 1, {"N13": first, "N14": "buddha2", "O13": "samurai1", "O15": "ronin"})
    lay(state, 1, {"P13": "rice3"})
    state.hands[0] = ["helmet4", "samurai3", "buddha4", "rice4", "ronin"]
    game.play(0, "helmet4 P14")
    game.play(0, "end")
    return state


def test_game_ends_when_a_figure_type_has_left_the_board():
    state = _closing_game({"O14": ["helmet", "buddha", "rice"], "O8": ["buddha"], "Q9": ["rice"]})
    assert state.captured[0]["helmet"] == 1  # 4 against samurai 1 + ronin
    assert state.captured[1] == {"helmet": 0, "buddha": 1, "rice": 1}
    assert state.result().reason == "a figure type has left the board"
    assert state.to_act() == frozenset()


def test_game_ends_with_four_figures_set_aside():
    """Seat 1's helmet 2 ties seat 0's helmet 4 (2 + samurai 1 + ronin): the
    fourth figure set aside ends the game though every type is still on the board."""
    figures = {
        "O14": ["helmet", "buddha", "rice"],
        "O8": ["helmet"],
        "Q9": ["buddha"],
        "O12": ["rice"],
    }
    state = _closing_game(figures, set_aside=3, first="helmet2")
    assert state.set_aside == {"helmet": 1, "buddha": 0, "rice": 3}
    assert state.result().reason == "four or more figures set aside"


def test_game_goes_on_below_four_set_aside_and_with_every_type_on_board():
    figures = {
        "O14": ["helmet", "buddha", "rice"],
        "O8": ["helmet"],
        "Q9": ["buddha"],
        "O12": ["rice"],
    }
    state = _closing_game(figures, set_aside=2, first="helmet2")
    assert state.result() is None and state.to_act() == {1}
