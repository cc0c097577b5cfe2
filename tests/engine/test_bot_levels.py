"""The bot levels' shared machinery: values of a finished game, reproducible matches."""

import pytest

from engine.bots import LEVELS, make_bot
from engine.bots.match import play_match_game
from engine.bots.strategy import outcome_values
from engine.core.state import Result


def test_a_finished_game_values_winners_one_and_the_last_zero():
    result = Result(ranking=((2,), (0, 1), (3,)), scores=({},) * 4, reason="")
    assert outcome_values(result, 4) == pytest.approx([0.5, 0.5, 1.0, 0.0])


def test_an_unknown_level_is_named_in_the_refusal():
    with pytest.raises(ValueError, match="grandmaster"):
        make_bot("grandmaster", "java", "k")


def test_levels_are_listed_weakest_first():
    assert LEVELS == ("random", "easy", "medium", "strong")


def test_a_match_game_is_the_same_every_time():
    first = play_match_game("samurai", ["random", "random"], "again")
    second = play_match_game("samurai", ["random", "random"], "again")
    assert first.game.to_record().to_json() == second.game.to_record().to_json()
    assert first.summary()["decisions"] == [len(s) for s in second.seconds]
