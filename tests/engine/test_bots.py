"""The two random bots: uniform over moves, or over kinds of move first."""

from collections import Counter

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
