"""The game-independent core, exercised through the toy ruleset."""

import json

import pytest

from engine import EngineError, Game, IllegalMove, LoggedMove, Record, RecordError, ReplayError
from engine.bots.random_play import RandomBot
from engine.core.hexgrid import distance, from_offset, neighbors, to_offset
from engine.core.options import Option, resolve_options
from engine.core.rng import SeededRandom, seed_commitment
from engine.core.selfplay import play_bot_game


def test_rng_stream_is_pinned_forever():
    """Old records must replay: these draws may never change."""
    rng = SeededRandom("pbem", "test")
    assert [rng.randbelow(1000) for _ in range(5)] == [517, 602, 113, 455, 448]
    items = list(range(10))
    SeededRandom("pbem", "shuffle").shuffle(items)
    assert items == [0, 6, 5, 2, 9, 8, 1, 7, 3, 4]


def test_rng_shuffle_is_a_permutation_and_depends_on_stream():
    a, b = list(range(20)), list(range(20))
    SeededRandom("s", "x").shuffle(a)
    SeededRandom("s", "y").shuffle(b)
    assert sorted(a) == list(range(20)) and sorted(b) == list(range(20))
    assert a != b


def test_rng_randbelow_is_roughly_uniform():
    rng = SeededRandom("uniform")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randbelow(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_seed_commitment_is_sha256():
    assert seed_commitment("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


def test_hex_offset_round_trip_and_neighbours():
    for q in range(-4, 5):
        for r in range(-4, 5):
            assert from_offset(*to_offset((q, r))) == (q, r)
            assert all(distance((q, r), n) == 1 for n in neighbors((q, r)))
    assert to_offset((1, 0)) == (1, 0)
    assert to_offset((2, -1)) == (2, 0)


def test_options_are_coerced_and_checked():
    spec = (Option("count", 24, "tiles", choices=(24, 36)), Option("teams", False, "teams"))
    assert resolve_options(spec, {"count": "36", "teams": "yes"}) == {"count": 36, "teams": True}
    assert resolve_options(spec, None) == {"count": 24, "teams": False}
    with pytest.raises(EngineError, match="one of 24, 36"):
        resolve_options(spec, {"count": "30"})
    with pytest.raises(EngineError, match="unknown option"):
        resolve_options(spec, {"colour": "red"})
    with pytest.raises(EngineError, match="yes or no"):
        resolve_options(spec, {"teams": "maybe"})


def _toy(**options) -> Game:
    return Game.new("toy-pick", ["Ann", "Bob"], seed="toy-seed", options=options)


def test_simultaneous_moves_and_turn_errors():
    game = _toy()
    assert game.state.to_act() == {0, 1}
    game.play(0, "pick 2")
    assert game.state.to_act() == {1}
    with pytest.raises(IllegalMove, match="waiting for Bob"):
        game.play(0, "pick 3")


def test_illegal_and_malformed_moves_name_the_rule():
    game = _toy()
    with pytest.raises(IllegalMove) as info:
        game.play(0, "pick 9")
    assert info.value.rule == "picks"
    with pytest.raises(IllegalMove, match="write 'pick N'"):
        game.play(0, "take 9")
    assert game.log == []


def test_play_all_is_all_or_nothing():
    game = _toy()
    with pytest.raises(IllegalMove):
        game.play_all(0, ["pick 1", "pick 2"])
    assert game.log == [] and game.state.to_act() == {0, 1}
    game.play_all(0, ["pick 1"])
    assert len(game.log) == 1


def _finish(game: Game) -> None:
    turn = 0
    while not game.state.is_over():
        for seat in sorted(game.state.to_act()):
            game.play(seat, f"pick {1 + (seat + turn) % 3}")
        turn += 1


def test_seed_hidden_until_the_end_and_commitment_shown():
    game = _toy(target=3)
    view = json.dumps(game.view(0))
    assert "toy-seed" not in view
    assert seed_commitment("toy-seed") in view
    _finish(game)
    final = game.view(None)
    assert final["seed"] == "toy-seed" and final["over"]
    assert final["result"]["winners"]


def test_history_hides_secret_moves_from_others():
    game = _toy()
    game.play(0, "pick 3")
    assert game.view(0)["history"] == [{"seat": 0, "move": "pick 3"}]
    assert game.view(1)["history"] == [{"seat": 0, "move": "pick (secret)"}]
    assert game.view(None)["history"] == [{"seat": 0, "move": "pick (secret)"}]


def test_record_round_trip_replays_identically(tmp_path):
    game = _toy(target=7)
    _finish(game)
    path = tmp_path / "game.json"
    game.to_record().save(path)
    again = Game.from_record(Record.load(path))
    assert again.state == game.state
    assert again.to_record() == game.to_record()


def test_replay_names_ply_seat_text_and_reason():
    record = _toy().to_record()
    record.moves = [LoggedMove(0, "pick 1"), LoggedMove(1, "pick 5")]
    with pytest.raises(ReplayError) as info:
        Game.from_record(record)
    assert info.value.ply == 2 and info.value.seat == 1 and info.value.text == "pick 5"
    assert "move 2 by seat 1 (Bob) 'pick 5'" in str(info.value)


def test_unknown_ruleset_version_and_bad_files(tmp_path):
    record = _toy().to_record()
    record.version = 99
    with pytest.raises(RecordError, match="no rules version 99"):
        Game.from_record(record)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.load(bad)
    bad.write_text('{"format": "something else"}')
    with pytest.raises(RecordError, match="not a game record"):
        Record.load(bad)


def test_seats_that_left_rank_last_and_the_record_keeps_them(tmp_path):
    played = Game.new("taluva", ["A", "B", "C"], seed="left")
    bot = RandomBot("left/bot")
    while played.state.result() is None:
        seat = min(played.state.to_act())
        played.push(seat, bot.choose(played.state, seat))
    rules = played.state.result()
    # B left first, then the rules' winner: the winner drops below everyone
    # who stayed, and B, who left first, to the very bottom.
    winner = rules.winners[0]
    gone_first = next(s for s in range(3) if s != winner)
    record = played.to_record()
    record.withdrawn = [gone_first, winner]
    path = tmp_path / "left.json"
    record.save(path)
    again = Game.from_record(Record.load(path))
    stayed = next(s for s in range(3) if s not in (winner, gone_first))
    assert again.result().ranking == ((stayed,), (winner,), (gone_first,))
    assert again.result().winners == (stayed,)
    assert again.view(None)["result"]["winners"] == [stayed]
    assert again.state.result() == rules  # the rules' own result is untouched
    assert Game.from_record(played.to_record()).result() == rules  # nobody left


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("java", 4, None), ("samurai", 4, None), ("taluva", 2, {"tiles": 36})],
)
def test_a_long_games_text_board_fits_a_mail_line(name, players, options):
    """Wide boards come in strips of columns, every hex still named."""
    game = play_bot_game(name, players, "wide", options).game
    drawing = game.state.text_board(0).drawing
    assert max(len(line) for line in drawing.splitlines()) <= 80
    assert "\n\n" in drawing  # more than one strip
    if name == "taluva":
        named = set(drawing.split())
        assert all(f"{q},{r}" in named for q, r in game.state.island.cells)
