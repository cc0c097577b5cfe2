"""`python -m pbem.render RECORD --seat S --language fr -o FILE`: the PNG of one seat's view."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import engine.games  # noqa: F401  (registers the rulesets)
from engine.core.errors import EngineError
from engine.core.game import Game
from engine.core.record import Record
from pbem.i18n.catalogues import TRANSLATED
from pbem.render import render_png

LANGUAGES = ("en", *TRANSLATED)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pbem render", description="Replay a game record and draw one seat's view as PNG."
    )
    parser.add_argument("record", help="game record file (JSON)")
    parser.add_argument("--seat", help="seat name or number (0-based); omitted: spectator")
    parser.add_argument(
        "--language", choices=LANGUAGES, default="en", help="language of the picture's words"
    )
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    args = parser.parse_args(argv)
    try:
        game = Game.from_record(Record.load(args.record))
        seat = game.seat_index(args.seat) if args.seat is not None else None
    except EngineError as exc:
        print(f"pbem render: {exc}", file=sys.stderr)
        return 1
    Path(args.output).write_bytes(render_png(game.view(seat), language=args.language))
    return 0


if __name__ == "__main__":
    sys.exit(main())
