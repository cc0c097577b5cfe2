"""A stand-in plays a timed-out Samurai turn with its one normal tile: the
fast tiles (ships, the ronin, the exchanges) stay behind the absent player's
screen, unless a fast tile is all the turn can play."""

from __future__ import annotations

import pytest

from engine import Game, IllegalMove
from engine.bots import LEVELS, decision_key, make_bot
from engine.games.samurai.tiles import kind
from tests.engine.samurai.helpers import game_in_play


def one_turn(game: Game, level: str, stand_in: bool) -> list[str]:
    state = game.state
    seat = state.current
    if stand_in:
        state.keep_reserves(seat)
    start = len(game.log)
    while seat in state.to_act():
        bot = make_bot(level, "samurai", decision_key(game.seed, seat, len(game.log)))
        game.push(seat, bot.choose(state, seat))
        if not state.turn_goes_on(seat):
            break
    return [entry.text for entry in game.log[start:]]


def fast(text: str) -> bool:
    return kind(text.split()[0]).fast


@pytest.mark.parametrize("level", LEVELS)
def test_the_seats_own_bot_plays_its_ronin_here(level: str) -> None:
    assert any(fast(text) for text in one_turn(game_in_play(2), level, stand_in=False)[:-1])


@pytest.mark.parametrize("level", LEVELS)
def test_a_stand_in_plays_one_normal_tile_and_ends(level: str) -> None:
    game = game_in_play(2)
    moves = one_turn(game, level, stand_in=True)
    assert len(moves) == 2 and not fast(moves[0]) and moves[1] == "end"
    assert "ronin" in game.state.hands[0]


def test_a_fast_tile_is_refused_to_a_stand_in_while_a_normal_one_would_do() -> None:
    game = game_in_play(2)
    game.state.keep_reserves(0)
    assert not any(fast(game.state.format_move(m)) for m in game.state.legal_moves(0))
    with pytest.raises(IllegalMove) as refused:
        game.play(0, "ronin N14")
    assert "keeps the player's reserves" in refused.value.reason


def test_with_only_fast_tiles_a_stand_in_plays_one_then_ends() -> None:
    game = game_in_play(2)
    state = game.state
    state.hands[0] = ["ronin", "ship1", "ship2"]
    state.keep_reserves(0)
    assert any(fast(state.format_move(m)) for m in state.legal_moves(0))
    moves = one_turn(game, "medium", stand_in=True)
    assert len(moves) == 2 and fast(moves[0]) and moves[1] == "end"
    assert state.current == 1 and state.legal_moves(0) == []
