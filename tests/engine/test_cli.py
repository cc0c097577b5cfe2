"""`python -m engine` as people and scripts use it."""

import json

import pytest

from engine.cli import main


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def record(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert run(capsys, "new", "taluva", "--players", "2", "--seed", "cli", "-o", str(path))[0] == 0
    return path


def test_games_lists_rulesets_with_versions(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0 and "taluva v1: Taluva, 2-4 players" in out
    assert "--option ranking=False" in out


def test_new_with_options_and_names(tmp_path, capsys):
    path = tmp_path / "g.json"
    args = ["new", "taluva", "--players", "2", "--seed", "x", "--seats", "Ann,Bob"]
    code, _, _ = run(capsys, *args, "--option", "tiles=36", "-o", str(path))
    data = json.loads(path.read_text())
    assert code == 0 and data["seats"] == ["Ann", "Bob"] and data["options"]["tiles"] == 36
    code, _, err = run(capsys, *args, "--option", "tiles=30", "-o", str(path))
    assert code == 1 and "one of 24, 36" in err
    code, _, err = run(capsys, "new", "chess", "--players", "2", "--seed", "x", "-o", str(path))
    assert code == 1 and "unknown game 'chess'" in err


def test_legal_then_move_then_show_and_replay(record, capsys):
    code, out, _ = run(capsys, "legal", str(record))
    first = out.splitlines()
    assert code == 0 and len(first) == 6 and all(m.startswith("tile 0,0") for m in first)
    code, out, _ = run(capsys, "move", str(record), first[0])
    assert code == 0 and "to act: p1" in out
    code, out, _ = run(capsys, "legal", str(record), "--seat", "p1")
    assert code == 0 and out.startswith("hut ")
    code, out, _ = run(capsys, "show", str(record), "--seat", "0")
    assert code == 0 and "0,0" in out and "seat 1 to build" in out
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "1 moves replayed" in out


def test_illegal_move_exits_1_and_leaves_the_file_untouched(record, capsys):
    before = record.read_text()
    code, _, err = run(capsys, "move", str(record), "tile 0,0 1,-1 0,-1")
    assert code == 1 and "cannot be turned over" in err
    code, _, err = run(capsys, "move", str(record), "tile 0,0 0,-1 1,-1", "--seat", "1")
    assert code == 1 and "not your turn" in err
    assert record.read_text() == before


def test_replay_reports_the_first_illegal_move(record, capsys):
    data = json.loads(record.read_text())
    data["moves"] = [{"seat": 0, "move": "tile 0,0 0,-1 1,-1"}, {"seat": 0, "move": "hut 0,0"}]
    record.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1 and "move 2 by seat 0 (p1) 'hut 0,0'" in err and "volcano" in err


@pytest.mark.parametrize("bot", ["uniform", "kinds"])
def test_selfplay_prints_a_line_per_game_and_saves_records(tmp_path, capsys, bot):
    code, out, _ = run(
        capsys,
        "selfplay",
        "--bot",
        bot,
        "taluva",
        "--players",
        "2",
        "--games",
        "2",
        "--seed",
        "7",
        "--save",
        str(tmp_path),
    )
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("game 1: ") and lines[-1].startswith("games=2 ")
    saved = sorted(tmp_path.glob("*.json"))
    assert len(saved) == 2
    for path in saved:
        assert run(capsys, "replay", str(path))[0] == 0


def test_demo_plays_a_whole_game_move_by_move(capsys):
    code, out, _ = run(capsys, "demo", "taluva", "--players", "2", "--seed", "d")
    assert code == 0 and "   1. bot1: tile 0,0" in out and "game over" in out
