"""A trial of a Samurai turn keeps the tiles the pile would give unknown."""

import pytest

from engine import IllegalMove
from engine.games.samurai.tiles import UNKNOWN
from tests.engine.samurai.helpers import game_in_play


def test_the_end_of_a_turn_refills_the_hand_with_unknown_tiles():
    game = game_in_play(2)
    state = game.state
    seat = state.current
    first = state.format_move(state.legal_moves(seat)[0])
    pile = list(state.piles[seat])
    trial = game.trial(seat, [first, "end"])
    assert trial.checked == (first, "end") and trial.unchecked == ()
    assert trial.concealed_draws == 1
    screen = trial.view()["state"]["seats"][seat]
    assert screen["hand"][-1] == UNKNOWN and len(screen["hand"]) == 5
    assert screen["pile_tiles"] == [UNKNOWN] * (len(pile) - 1)
    assert f"hand {', '.join(screen['hand'])};" in trial.text_picture()
    assert state.piles[seat] == pile


def test_a_move_after_the_turn_is_over_is_refused_at_once():
    game = game_in_play(2)
    state = game.state
    seat = state.current
    first, second = (state.format_move(m) for m in state.legal_moves(seat)[:2])
    with pytest.raises(IllegalMove, match="not your turn"):
        game.trial(seat, [first, "end", second])
