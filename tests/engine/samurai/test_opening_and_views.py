"""The secret opening choice, private piles, notation errors and what each seat sees."""

import json
from collections import Counter

import pytest

from engine import Game, IllegalMove
from engine.core.selfplay import play_bot_game
from engine.games.samurai.tiles import COLOUR_COUNTS
from tests.engine.samurai.helpers import OPENING, game_in_play, new_game


def test_opening_choice_is_simultaneous():
    game = new_game(3)
    assert game.state.to_act() == {0, 1, 2}
    game.play(1, "choose " + " ".join(OPENING))
    assert game.state.to_act() == {0, 2}
    assert game.state.phase == "choose"


def test_every_listed_opening_choice_is_legal_and_different():
    game = new_game(2)
    choices = game.state.legal_moves(0)
    assert len(set(choices)) == len(choices) > 1000
    for choice in choices:
        game.state.check(0, choice)
        assert Counter(choice.tiles) - COLOUR_COUNTS == Counter()


def test_opening_choice_is_secret_until_the_end():
    game = new_game(2)
    game.play(0, "choose ship1 ship1 ronin samurai3 helmet4")
    assert game.view(1)["history"][0]["move"] == "choose 5 tiles (secret)"
    assert game.view(None)["history"][0]["move"] == "choose 5 tiles (secret)"
    assert game.view(0)["history"][0]["move"] == "choose helmet4 samurai3 ronin ship1 ship1"
    assert game.view(0)["state"]["seats"][0]["choice"] == [
        "helmet4",
        "samurai3",
        "ronin",
        "ship1",
        "ship1",
    ]
    assert "choice" not in game.view(1)["state"]["seats"][0]


def test_opening_choice_is_revealed_when_the_screens_open():
    played = play_bot_game("samurai", 2, "reveal")
    final = played.game.view(1)
    assert final["history"][0]["move"].startswith("choose ") and "secret" not in json.dumps(
        final["history"]
    )
    assert all("hand" in s and "captured" in s for s in final["state"]["seats"])
    assert final["state"]["screens_open"] is True


def test_opening_choice_takes_five_of_the_colour_tiles():
    game = new_game(2)
    with pytest.raises(IllegalMove, match="only 1 samurai3") as info:
        game.play(0, "choose samurai3 samurai3 ronin ship1 ship2")
    assert info.value.rule == "opening choice"
    with pytest.raises(IllegalMove, match="exactly 5 tiles"):
        game.play(0, "choose ronin ship1 ship2")


def test_other_fifteen_tiles_form_each_seat_own_shuffled_pile():
    game = new_game(2, seed="piles")
    game.play(0, "choose " + " ".join(OPENING))
    assert game.state.piles == [[], []]
    game.play(1, "choose helmet2 helmet3 rice2 ship1 ship1")
    state = game.state
    assert state.phase == "figures"
    assert state.hands[1] == ["helmet2", "helmet3", "rice2", "ship1", "ship1"]
    for seat in (0, 1):
        assert len(state.piles[seat]) == 15
        assert Counter(state.piles[seat]) + Counter(state.hands[seat]) == COLOUR_COUNTS
    other = new_game(2, seed="piles-2")
    other.play(0, "choose " + " ".join(OPENING))
    other.play(1, "choose helmet2 helmet3 rice2 ship1 ship1")
    assert other.state.piles != state.piles  # the seed decides the order


def test_parse_errors_say_what_to_write():
    game = game_in_play(2)
    cases = {
        "helmet9 N13": "not a tile (tiles: helmet2",
        "helmet4 Z99": "no space 'Z99' in play",
        "helmet4": "write 'TILE SPACE",
        "figure-exchange O10 helmet": "write 'figure-exchange SPACE FIGURE",
        "figure-exchange O10 sword O8 rice": "'sword' is not a figure",
        "": "empty move",
    }
    for text, message in cases.items():
        with pytest.raises(IllegalMove, match=message.replace("(", r"\(")):
            game.play(0, text)


def test_moves_of_another_phase_are_refused_with_the_phase():
    game = new_game(2)
    with pytest.raises(IllegalMove, match="the opening") as info:
        game.play(0, "helmet4 N13")
    assert info.value.rule == "game phase"


def test_north_spaces_exist_only_with_four_players():
    game = game_in_play(2)
    with pytest.raises(IllegalMove, match="no space 'P5'"):
        game.play(0, "helmet4 P5")


def test_view_hides_other_screens_and_pile_order():
    game = game_in_play(3)
    game.state.captured[1]["rice"] = 2
    view = game.view(0)["state"]
    mine, other = view["seats"][0], view["seats"][1]
    assert mine["hand"] == game.state.hands[0]
    assert sorted(mine["pile_tiles"]) == sorted(game.state.piles[0])
    assert "hand" not in other and "captured" not in other and "pile_tiles" not in other
    assert other["hand_size"] == 5 and other["pile_size"] == 15
    spectator = game.view(None)["state"]
    assert all("hand" not in s for s in spectator["seats"])


def test_resolution_in_the_view_names_the_captor_only_to_the_captor():
    game = game_in_play(2)
    state = game.state
    state.last_resolution = [(state.board.edo, "helmet", 1), (state.board.edo, "rice", None)]
    for viewer, sees in ((1, True), (0, False), (None, False)):
        events = game.view(viewer)["state"]["last_resolution"]
        assert ("taken_by" in events[0]) is sees
        assert events[1]["set_aside"] is True and "taken_by" not in events[1]


def test_record_replays_to_an_equal_state():
    played = play_bot_game("samurai", 3, "replay-check")
    again = Game.from_record(played.game.to_record())
    assert again.state == played.game.state
    assert again.state.result() == played.game.state.result()


def test_text_picture_shows_own_screen_only():
    game = game_in_play(2)
    picture = game.state.text_picture(0)
    assert "O14" in picture and "E[HBR]" in picture
    assert f"hand {', '.join(game.state.hands[0])};" in picture
    assert picture.count("; hand ") == 1
