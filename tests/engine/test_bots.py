"""The two random bots: uniform over moves, or over kinds of move first; and
what any bot says when asked to move for a seat that cannot."""

from collections import Counter

import pytest

from engine.bots import make_bot
from engine.bots.base import NoLegalMove
from engine.bots.random_play import KindsBot, RandomBot
from engine.games.java.notation import TakeToken
from engine.games.java.state import JavaState


def token_share(bot_class: type[RandomBot]) -> float:
    """How often a bot takes the action token at the start of a Java game,
    where it is one move among hundreds of tile placements and irrigations."""
    state = JavaState.new(2, "bots")
    seat = state.current
    kinds = {type(m) for m in state.legal_moves(seat)}
    assert len(kinds) == 4 and TakeToken in kinds  # tiles, irrigation, cards, token
    picks = Counter(type(bot_class(f"bot-{i}").choose(state, seat)).__name__ for i in range(200))
    return picks["TakeToken"] / 200


def test_the_uniform_bot_rarely_picks_a_single_move():
    assert token_share(RandomBot) < 0.02


def test_the_kinds_bot_picks_each_kind_about_as_often():
    assert 0.18 < token_share(KindsBot) < 0.32


def test_a_bot_asked_for_a_seat_without_legal_moves_says_so():
    state = JavaState.new(2, "bots")
    waiting = 1 - state.current
    assert state.legal_moves(waiting) == []
    with pytest.raises(NoLegalMove, match=f"seat {waiting} is asked to act"):
        make_bot("random", "java", "key").choose(state, waiting)
