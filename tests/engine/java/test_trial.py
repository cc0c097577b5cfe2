"""A trial of a seat's moves conceals what a draw would reveal, and a draw,
once made for real, cannot be taken back."""

import pytest

from engine import Game, IllegalMove, PartlyPlayed
from engine.games.java import cards
from engine.games.java.state import JavaState
from tests.engine.java.helpers import festival_position, game, hand, play

UNKNOWN = cards.UNKNOWN


def as_game(state: JavaState) -> Game:
    played = Game.new("java", [f"s{i}" for i in range(state.players)], "rules")
    played.state = state
    return played


def tile_laid() -> JavaState:
    state = game(2, 0)
    state.tile_placed = True
    return state


def test_drawing_from_the_deck_shows_a_card_from_the_deck():
    state = tile_laid()
    deck, own = list(state.deck), list(state.hands[0])
    trial = as_game(state).trial(0, ["draw deck"])
    assert trial.checked == ("draw deck",) and trial.unchecked == ()
    assert trial.concealed_draws == 1
    view = trial.view()["state"]
    assert view["hand"] == [*cards.sort_cards(own), UNKNOWN]
    assert view["deck_size"] == len(deck) - 1 and view["cards_drawn"] == 1
    assert trial.game.state.deck == [UNKNOWN] * (len(deck) - 1)
    hand = f"your hand: {' '.join(cards.sort_cards(own))}; cards drawn from the deck"
    assert hand in trial.text_picture()
    assert state.deck == deck and state.hands[0] == own  # the game itself is untouched


def test_drawing_the_faceup_card_shows_its_successor_as_unknown():
    state = tile_laid()
    faceup = state.faceup
    view = as_game(state).trial(0, ["draw faceup"]).view()["state"]
    assert faceup in view["hand"] and view["faceup"] == UNKNOWN


def test_a_reshuffle_of_the_discards_stays_unknown():
    state = tile_laid()
    state.discards, state.deck = state.deck, []
    trial = as_game(state).trial(0, ["draw deck"])
    assert trial.game.state.discards == []
    assert set(trial.game.state.deck) == {UNKNOWN}
    assert UNKNOWN in trial.view()["state"]["hand"]


def festival_after_tile() -> JavaState:
    state = festival_position()
    hand(state, 0)
    hand(state, 1)
    play(state, 0, "rice G9")
    return state


def test_moves_after_a_draw_are_read_but_left_to_the_real_draw():
    state = festival_after_tile()
    trial = as_game(state).trial(0, ["draw deck", "festival e5 m"])
    assert trial.checked == ("draw deck",) and trial.unchecked == ("festival E5 M",)
    with pytest.raises(IllegalMove, match="do not hold the card M"):
        as_game(state).trial(0, ["festival E5 M", "draw deck"])
    with pytest.raises(IllegalMove, match="unknown move"):
        as_game(state).trial(0, ["draw deck", "dance E5"])


@pytest.mark.parametrize("top", ["D", "M"])
def test_a_draw_is_played_even_when_a_move_after_it_is_refused(top):
    state = festival_after_tile()
    state.deck[-1] = top
    played = as_game(state)
    partly = played.play_submission(0, ["draw deck", "festival E5 M"])
    if top == "M":
        assert partly is None and [e.text for e in played.log] == ["draw deck", "festival E5 M"]
        return
    assert isinstance(partly, PartlyPlayed)
    assert partly.played == ("draw deck",) and partly.not_played == ("festival E5 M",)
    assert "do not hold the card M" in str(partly) and "cannot be taken back" in str(partly)
    assert [e.text for e in played.log] == ["draw deck"]
    assert played.state.hands[0] == ["D"] and played.state.current == 0


def test_a_submission_the_trial_refuses_plays_nothing():
    state = festival_after_tile()
    played = as_game(state)
    with pytest.raises(IllegalMove, match="do not hold the card M"):
        played.play_submission(0, ["festival E5 M", "draw deck"])
    assert played.log == [] and played.state.hands[0] == []
