"""A stand-in plays a timed-out Java turn within the turn's normal means: the
seat keeps its action tokens, its festival cards and its own land tiles
(State.keep_reserves), and its legal moves are exactly what the rules and
that restraint allow."""

from __future__ import annotations

import pytest

from engine import Game
from engine.bots import LEVELS, decision_key, make_bot
from engine.bots.random_play import RandomBot
from engine.core.errors import IllegalMove
from engine.games.java.notation import (
    EndTurn,
    Festival,
    Pass,
    PlaceTile,
    PlayCards,
    TakeToken,
    format_move,
)
from engine.games.java.state import JavaState
from engine.games.java.tiles import ACTION_TOKENS, TRIPLE
from tests.engine.java.helpers import candidates, festival_position, game, hand, play

SEED = "tok1"  # the medium bot opens the first turn of this game with the token


def first_turn(stand_in: bool, level: str) -> list[str]:
    """The moves a bot of `level` makes in seat 0's first turn."""
    played = Game.new("java", ["a", "b"], SEED)
    seat = min(played.state.to_act())
    if stand_in:
        played.state.keep_reserves(seat)
    while seat in played.state.to_act():
        bot = make_bot(level, "java", decision_key(SEED, seat, len(played.log)))
        played.push(seat, bot.choose(played.state, seat))
        if not played.state.turn_goes_on(seat):
            break
    return [entry.text for entry in played.log]


def test_the_seats_own_bot_spends_an_action_token_here() -> None:
    assert first_turn(stand_in=False, level="medium")[0] == "token"


@pytest.mark.parametrize("level", LEVELS)
def test_a_stand_in_plays_the_turn_without_the_token(level: str) -> None:
    moves = first_turn(stand_in=True, level=level)
    assert "token" not in moves
    assert moves[-1] == "end" or any(m.startswith("festival") for m in moves)
    assert any(m.startswith("triple ") for m in moves)  # the turn's duty is done


def allowed(state: JavaState, seat: int, move) -> bool:
    try:
        state.judge(seat, move)
    except IllegalMove:
        return False
    return True


def test_kept_reserves_leave_exactly_the_moves_the_rules_then_accept() -> None:
    played = Game.new("java", ["a", "b", "c"], "kept")
    bot = RandomBot("kept")
    checked = 0
    while not played.state.is_over() and len(played.log) < 400:
        seat = min(played.state.to_act())
        if len(played.log) % 9 == 0:
            state = played.state.copy()
            state.keep_reserves(seat)
            legal = set(state.legal_moves(seat))
            wanted = {m for m in candidates(state, seat) if allowed(state, seat, m)}
            assert wanted <= legal, sorted(map(format_move, wanted - legal))[:5]
            assert all(allowed(state, seat, m) for m in legal)
            assert not any(isinstance(m, TakeToken | Festival | PlayCards) for m in legal)
            checked += 1
        played.push(seat, bot.choose(played.state, seat))
    assert checked > 30


def test_the_token_and_a_festival_are_refused_to_a_stand_in() -> None:
    state = festival_position()
    hand(state, 0, "M", "MD")
    state.play(0, "triple G8 G9 H8 village=G8")
    assert TakeToken() in state.legal_moves(0)
    assert any(isinstance(m, Festival) for m in state.legal_moves(0))
    state.keep_reserves(0)
    for text in ("token", "festival E5 M"):
        with pytest.raises(IllegalMove) as refused:
            state.play(0, text)
        assert "keeps the player's reserves" in refused.value.reason
    assert state.tokens[0] == ACTION_TOKENS
    assert EndTurn() in state.legal_moves(0)


def test_in_an_auction_a_stand_in_keeps_its_cards() -> None:
    state = festival_position()
    hand(state, 0, "M")
    hand(state, 1, "M", "MD")
    play(state, 0, "triple G8 G9 H8 village=G8", "festival E5 M")
    assert state.to_act() == {1}
    assert any(isinstance(m, PlayCards) for m in state.legal_moves(1))
    state.keep_reserves(1)
    assert state.legal_moves(1) == [Pass()]


def test_own_tiles_are_kept_while_a_triple_would_do() -> None:
    state = game(2, 0)
    kinds = {m.kind for m in state.legal_moves(0) if isinstance(m, PlaceTile)}
    assert kinds == {"triple", "double", "rice", "village"}
    state.keep_reserves(0)
    kinds = {m.kind for m in state.legal_moves(0) if isinstance(m, PlaceTile)}
    assert kinds == {TRIPLE}
    assert state.spends_reserve(0, PlaceTile("rice", ("G5",)))


def test_own_tiles_are_no_reserve_once_no_triple_can_be_laid() -> None:
    state = game(2, 0)
    state.triples = 0  # the final round: each seat's last turn
    state.keep_reserves(0)
    assert not state.spends_reserve(0, PlaceTile("rice", ("G5",)))
    assert PlaceTile("rice", ("G5",)) in state.legal_moves(0)
