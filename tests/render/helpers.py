"""Reading rendered pictures back: games to draw and pixels where pieces must be."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image

import engine.games  # noqa: F401  (registers the rulesets)
from engine.core.game import Game
from engine.core.selfplay import play_bot_game
from pbem.render.palette import cut_board_and_panel
from pbem.render.panel import WIDTH

TOLERANCE = 14
# The middle of the south-east side of the last-turn ring (0.86 of the hex size
# out), relative to a hex centre in hex sizes.
RING = (0.86 * 0.75, 0.86 * 0.866 * 0.5)


@lru_cache(maxsize=16)
def bot_game(name: str, players: int, seed: str) -> Game:
    return play_bot_game(name, players, seed).game


@lru_cache(maxsize=32)
def cut(game: Game, plies: int) -> Game:
    """The same game replayed to its first `plies` moves (shared: only read it)."""
    record = game.to_record()
    record.moves = record.moves[:plies]
    return Game.from_record(record)


def cut_in_two(png: bytes) -> tuple[bytes, bytes]:
    """A whole picture (render_png, board.png) cut as a mail cuts its own."""
    return cut_board_and_panel(Image.open(io.BytesIO(png)), WIDTH)


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(actual: tuple[int, ...], wanted: tuple[int, ...]) -> bool:
    return all(abs(a - w) <= TOLERANCE for a, w in zip(actual, wanted, strict=True))


def pixel(picture: Any, x: float, y: float) -> tuple[int, int, int]:
    return picture.image.getpixel((round(x), round(y)))


def share(picture: Any, x: float, y: float, half: float, colour: tuple[int, int, int]) -> float:
    """The fraction of the square around (x, y) drawn in `colour`."""
    box = picture.image.crop((round(x - half), round(y - half), round(x + half), round(y + half)))
    data = box.tobytes()
    pixels = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
    return sum(close(p, colour) for p in pixels) / len(pixels)
