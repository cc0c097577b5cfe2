"""`turn_goes_on`: a seat that moved and must act again in the same turn (the
pipeline then sends it no new 'your turn')."""

from __future__ import annotations

import pytest

import engine.games  # noqa: F401  (registers the rulesets)
from engine.core.game import Game
from engine.core.selfplay import play_bot_game


@pytest.mark.parametrize("name", ["taluva", "java", "samurai"])
def test_the_turn_goes_on_only_for_the_mover_while_it_must_act(name):
    seen = []

    def follow(game: Game, seat: int, _move: object) -> None:
        state = game.state
        goes_on = state.turn_goes_on(seat)
        assert not goes_on or seat in state.to_act()
        assert not any(state.turn_goes_on(other) for other in range(state.players) if other != seat)
        seen.append(goes_on)

    play_bot_game(name, 2, "turns", on_move=follow)
    assert True in seen and False in seen


def test_a_taluva_turn_goes_on_from_the_tile_to_the_build():
    game = Game.new("taluva", ["a", "b"], "turns")
    game.push(0, game.state.legal_moves(0)[0])
    assert game.state.turn_goes_on(0)
    game.push(0, game.state.legal_moves(0)[0])
    assert not game.state.turn_goes_on(0) and not game.state.turn_goes_on(1)
