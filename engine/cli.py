"""`python -m engine`: create, inspect, play and replay game records."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.bots.levels import LEVELS
from engine.bots.match import play_match_game
from engine.bots.random_play import SELFPLAY_BOTS
from engine.core.errors import EngineError
from engine.core.game import Game
from engine.core.record import Record
from engine.core.registry import rulesets
from engine.core.selfplay import play_bot_game


def _options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise EngineError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _load(path: str) -> Game:
    return Game.from_record(Record.load(path))


def _acting_seat(game: Game, seat: str | None) -> int:
    if seat is not None:
        return game.seat_index(seat)
    acting = sorted(game.state.to_act())
    if len(acting) != 1:
        if not acting:
            raise EngineError("nobody may act: the game is over")
        names = ", ".join(game.seats[s] for s in acting)
        raise EngineError(f"several seats may act ({names}): say which with --seat")
    return acting[0]


def cmd_games(args: argparse.Namespace) -> None:
    for ruleset in rulesets():
        print(
            f"{ruleset.name} v{ruleset.version}: {ruleset.title}, "
            f"{ruleset.min_players}-{ruleset.max_players} players"
        )
        for option in ruleset.option_spec:
            print(f"    --option {option.name}={option.default}  {option.help}")


def cmd_new(args: argparse.Namespace) -> None:
    seats = args.seats.split(",") if args.seats else [f"p{i + 1}" for i in range(args.players)]
    if len(seats) != args.players:
        raise EngineError(f"--seats names {len(seats)} seats but --players is {args.players}")
    game = Game.new(args.game, seats, args.seed, _options(args.option))
    game.to_record().save(args.output)
    print(f"{args.output}: new {game.ruleset.title} game for {', '.join(seats)}")


def cmd_legal(args: argparse.Namespace) -> None:
    game = _load(args.file)
    seats = [game.seat_index(args.seat)] if args.seat is not None else sorted(game.state.to_act())
    for seat in seats:
        prefix = f"{game.seats[seat]}: " if len(seats) > 1 else ""
        for move in game.state.legal_moves(seat):
            print(prefix + game.state.format_move(move))


def cmd_move(args: argparse.Namespace) -> None:
    game = _load(args.file)
    seat = _acting_seat(game, args.seat)
    move = game.play(seat, args.text)
    game.to_record().save(args.file)
    print(f"{game.seats[seat]}: {game.state.format_move(move)}")
    _print_status(game)


def _print_status(game: Game) -> None:
    result = game.result()
    if result is None:
        print("to act: " + ", ".join(game.seats[s] for s in sorted(game.state.to_act())))
        return
    names = ", ".join(game.seats[s] for s in result.winners) or "nobody"
    print(f"game over ({result.reason}); winner: {names}")
    for place, group in enumerate(result.ranking, start=1):
        for seat in group:
            print(f"  {place}. {game.seats[seat]} {json.dumps(result.scores[seat])}")
    for seat in result.unranked:
        print(f"  -. {game.seats[seat]} {json.dumps(result.scores[seat])}")


def cmd_show(args: argparse.Namespace) -> None:
    game = _load(args.file)
    seat = game.seat_index(args.seat) if args.seat is not None else None
    print(game.state.text_picture(seat))
    _print_status(game)


def cmd_replay(args: argparse.Namespace) -> None:
    game = _load(args.file)
    print(f"{game.ruleset.title} v{game.ruleset.version}: {len(game.log)} moves replayed")
    _print_status(game)


def cmd_selfplay(args: argparse.Namespace) -> None:
    options = _options(args.option)
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    total_moves = 0
    total_ms = 0.0
    for number in range(1, args.games + 1):
        played = play_bot_game(
            args.game, args.players, f"{args.seed}-{number}", options, bot=args.bot
        )
        total_moves += played.moves
        total_ms += played.milliseconds
        result = played.game.result()
        assert result is not None
        winners = ",".join(played.game.seats[s] for s in result.winners) or "nobody"
        print(
            f"game {number}: {played.moves} moves, {result.reason}, winner {winners}, "
            f"{played.milliseconds:.1f} ms"
        )
        if save:
            played.game.to_record().save(save / f"{args.game}-{args.players}p-{number:03d}.json")
    print(f"games={args.games} moves={total_moves} ms_per_game={total_ms / max(args.games, 1):.1f}")


def cmd_match(args: argparse.Namespace) -> None:
    """Bot games at chosen levels: one JSON line each, records in --out."""
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    for number in range(1, args.games + 1):
        played = play_match_game(
            args.ruleset, args.bots, f"{args.seed}-{number}", _options(args.option)
        )
        line = {"game": number, **played.summary()}
        if out:
            path = out / f"{args.ruleset}-{'-'.join(args.bots)}-{number:03d}.json"
            played.game.to_record().save(path)
            line["record"] = str(path)
        print(json.dumps(line), flush=True)


def cmd_demo(args: argparse.Namespace) -> None:
    """A bot game move by move, for a first look at the engine."""

    def show(game: Game, seat: int, move: object) -> None:
        print(f"{len(game.log):4d}. {game.seats[seat]}: {game.state.format_move(move)}")

    game = play_bot_game(args.game, args.players, args.seed, _options(args.option), show).game
    print()
    print(game.state.text_picture(None))
    _print_status(game)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list rulesets and versions").set_defaults(func=cmd_games)

    new = sub.add_parser("new", help="start a game record")
    new.add_argument("game")
    new.add_argument("--players", type=int, required=True)
    new.add_argument("--seed", required=True)
    new.add_argument("--seats", help="comma-separated seat names")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    new.add_argument("-o", "--output", required=True)
    new.set_defaults(func=cmd_new)

    for name, func, text in (
        ("legal", cmd_legal, "print legal moves"),
        ("show", cmd_show, "print the board and a seat's private information"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("file")
        p.add_argument("--seat", help="seat number (from 0) or name")
        p.set_defaults(func=func)

    move = sub.add_parser("move", help="append a legal move to a record")
    move.add_argument("file")
    move.add_argument("text")
    move.add_argument("--seat", help="seat number (from 0) or name")
    move.set_defaults(func=cmd_move)

    replay = sub.add_parser("replay", help="replay a record and print the final state")
    replay.add_argument("file")
    replay.set_defaults(func=cmd_replay)

    selfplay = sub.add_parser("selfplay", help="bots play complete games")
    selfplay.add_argument("game")
    selfplay.add_argument("--players", type=int, required=True)
    selfplay.add_argument("--games", type=int, default=1)
    selfplay.add_argument("--seed", required=True)
    selfplay.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    selfplay.add_argument("--save", metavar="DIR")
    selfplay.add_argument(
        "--bot",
        choices=sorted(SELFPLAY_BOTS),
        default="uniform",
        help="uniform over legal moves, or uniform over kinds of move first",
    )
    selfplay.set_defaults(func=cmd_selfplay)

    match = sub.add_parser("match", help="bots of chosen levels play each other")
    match.add_argument("ruleset")
    match.add_argument(
        "bots", nargs="+", choices=LEVELS, metavar="BOT", help=f"one per seat: {', '.join(LEVELS)}"
    )
    match.add_argument("--games", type=int, default=1)
    match.add_argument("--seed", required=True)
    match.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    match.add_argument("--out", metavar="DIR", help="write each game's record here")
    match.set_defaults(func=cmd_match)

    demo = sub.add_parser("demo", help="watch one bot game")
    demo.add_argument("game")
    demo.add_argument("--players", type=int, default=3)
    demo.add_argument("--seed", default="demo")
    demo.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    demo.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
