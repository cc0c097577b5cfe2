"""`python -m pbem.render RECORD --seat S -o FILE` and the shipped fonts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.render import render_png
from pbem.render.__main__ import main
from pbem.render.hexdraw import FONT_DIR, font
from tests.render.helpers import bot_game, cut, image


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    cut(bot_game("taluva", 3, "render"), 20).to_record().save(path)
    return path


def test_renders_the_view_of_the_seat_named(record_file: Path, tmp_path: Path) -> None:
    game = cut(bot_game("taluva", 3, "render"), 20)
    out = tmp_path / "board.png"
    assert main([str(record_file), "--seat", game.seats[1], "-o", str(out)]) == 0
    assert out.read_bytes() == render_png(game.view(1))
    assert main([str(record_file), "--seat", "2", "-o", str(out)]) == 0
    assert out.read_bytes() == render_png(game.view(2))


def test_draws_its_words_in_the_language_asked(record_file: Path, tmp_path: Path) -> None:
    game = cut(bot_game("taluva", 3, "render"), 20)
    out = tmp_path / "board.png"
    assert main([str(record_file), "--seat", "1", "--language", "cs", "-o", str(out)]) == 0
    assert out.read_bytes() == render_png(game.view(1), language="cs") != render_png(game.view(1))


@pytest.mark.system
def test_without_a_seat_renders_the_spectator_view(record_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = subprocess.run(
        [sys.executable, "-m", "pbem.render", str(record_file), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    game = cut(bot_game("taluva", 3, "render"), 20)
    assert out.read_bytes() == render_png(game.view(None))
    assert image(out.read_bytes()).width > 1000


def test_unknown_seat_is_refused_with_a_message(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(record_file), "--seat", "nobody", "-o", str(tmp_path / "x.png")]) == 1
    assert "no seat 'nobody'" in capsys.readouterr().err


def test_fonts_come_from_the_package() -> None:
    assert Path(font(20).path).parent == FONT_DIR
    assert Path(font(20, bold=True).path).parent == FONT_DIR
    assert (FONT_DIR / "LICENSE-DejaVu.txt").is_file()


def test_pbem_render_command_is_the_same_program(record_file: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main as pbem_main

    out = tmp_path / "board.png"
    result = CliRunner().invoke(pbem_main, ["render", str(record_file), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == render_png(cut(bot_game("taluva", 3, "render"), 20).view(None))
