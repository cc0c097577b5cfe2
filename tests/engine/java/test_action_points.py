"""What a page shows while a Java turn is built: the AP left and what each
legal move would spend, read from the rules rather than worked out again."""

from engine.games.java.notation import parse
from tests.engine.java.helpers import game, hand, palace, play, put


def cost(state, text: str) -> int:
    return state.action_cost(parse(text))


def test_each_kind_of_action_costs_what_the_rulebook_says():
    state = game(2, 0, "rice J1", "rice G9", "village F8", "rice G8", "rice E8")
    put(state, 0, "G9")
    assert cost(state, "enter J1") == 2  # from the mountains
    assert cost(state, "leave G9") == 1  # to the lowlands
    assert cost(state, "move G9 E8") == 2  # two changes of colour
    assert cost(state, "irrigate H5") == 1
    assert cost(state, "draw deck") == 1
    assert cost(state, "token") == -1  # it gives one
    assert cost(state, "end") == 0


def test_the_points_left_go_down_by_each_moves_cost_and_belong_to_the_mover():
    state = game(2, 0, "rice G9", "village F8", "rice G8", "rice E8")
    put(state, 0, "G9")
    hand(state, 0, "M")
    palace(state, "F8", 2)
    assert state.action_points(0) == 6 and state.action_points(1) is None
    for text in ("token", "move G9 G8", "enter G9", "draw faceup"):
        before = state.action_points(0)
        spent = cost(state, text)
        play(state, 0, text)
        assert state.action_points(0) == before - spent
    assert state.action_points(0) == 6 + 1 - 0 - 1 - 1
