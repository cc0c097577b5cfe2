"""Outgoing mail, row by row against in batches: prints figures.

    .venv/bin/python benchmarks/mail.py [--turns 60] [--from-ply 540] [--whole-turns]

A 4-player Java bot game is stored in a scratch SQLite database up to
--from-ply; then --turns submissions are judged through the pipeline and
committed, each queuing its mails as the server does: one action each, as
the web page and the API send them, or with --whole-turns each seat's whole
run of moves, as a mail does. Each submission's mails are sent twice to an
aiosmtpd sink on loopback: row by row (a batch of one per row, as every row
was sent before batches: each replays the game, draws its board and opens
its own SMTP connection) and as the one batch the commit hands on. Printed
per submission and in total: mails, wall and CPU ms per mail (composing and
sending), replays of the game, boards drawn, SMTP connections.
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SMTPSession
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from engine.core.selfplay import play_bot_game
from pbem import create_app, migrate
from pbem.db import get_db
from pbem.mail import game_views, send
from pbem.models import Channel, Game, Move, Outbox, OutboxStatus
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.pipeline import process_submission
from pbem.services.submissions import submit

SEED = "bench-mail"
PLAYERS = 4


class Sink:
    """An SMTP server that keeps nothing, counting messages and connections."""

    def __init__(self) -> None:
        self.messages = 0
        self.connections = 0
        self._seen: weakref.WeakSet[object] = weakref.WeakSet()

    async def handle_DATA(self, server: SMTP, session: SMTPSession, envelope: Envelope) -> str:
        if session not in self._seen:  # aiosmtpd makes one session per connection
            self._seen.add(session)
            self.connections += 1
        self.messages += 1
        return "250 OK"


class Counted:
    """A function of pbem.mail.game_views, counting its calls."""

    def __init__(self, name: str) -> None:
        self.calls = 0
        self._real: Callable[..., Any] = getattr(game_views, name)
        setattr(game_views, name, self)

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self._real(*args)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def turns_of(moves: list[Any]) -> list[tuple[int, int, list[str]]]:
    """(first ply, seat, move texts) of each run of moves by one seat."""
    turns, ply = [], 1
    for seat, run in groupby(moves, key=lambda move: move.seat):
        texts = [move.text for move in run]
        turns.append((ply, seat, texts))
        ply += len(texts)
    return turns


def actions_of(moves: list[Any]) -> list[tuple[int, int, list[str]]]:
    """(ply, seat, [move text]) of each move: one submission per action."""
    return [(ply, move.seat, [move.text]) for ply, move in enumerate(moves, start=1)]


def stored_game(session: Session, moves: list[Any], plies: int) -> Game:
    users = [
        accounts.create_user(session, f"player{n}@bench.test", f"Player {n}")
        for n in range(PLAYERS)
    ]
    for user in users:
        user.quiet_start, user.quiet_end = accounts.parse_quiet_hours(None)
    game = create_game(session, users[0], "java", [SeatSpec(user=u) for u in users], seed=SEED)
    for ply, move in enumerate(moves[:plies], start=1):
        game.moves.append(Move(ply=ply, seat=game.seats[move.seat], text=move.text, channel="bot"))
    session.commit()
    return game


@dataclass
class Sending:
    """One way of sending the turns' mails, and what it cost."""

    name: str
    ms: float = 0.0
    cpu_ms: float = 0.0
    replays: int = 0
    boards: int = 0
    connections: int = 0

    def send(
        self, session: Session, batches: list[list[int]], config: Any, counters: Counters
    ) -> Sending:
        """Send the batches; what this took, added to the path's totals."""
        before = counters.now()
        started, cpu_started = time.perf_counter(), time.process_time()
        for batch in batches:
            send.send_rows(session, batch, config)
        spent = Sending(
            self.name,
            (time.perf_counter() - started) * 1000,
            (time.process_time() - cpu_started) * 1000,
            *(after - earlier for after, earlier in zip(counters.now(), before, strict=True)),
        )
        self.ms, self.cpu_ms = self.ms + spent.ms, self.cpu_ms + spent.cpu_ms
        self.replays += spent.replays
        self.boards += spent.boards
        self.connections += spent.connections
        return spent

    def figures(self, mails: int) -> str:
        return (
            f"{self.ms / mails:7.1f} {self.cpu_ms / mails:8.1f} {self.replays:7d} "
            f"{self.boards:6d} {self.connections:5d}"
        )


@dataclass
class Counters:
    replays: Counted
    boards: Counted
    sink: Sink

    def now(self) -> tuple[int, int, int]:
        return self.replays.calls, self.boards.calls, self.sink.connections


def unsent(session: Session, ids: list[int]) -> None:
    """The rows as the commit left them, to be sent once more."""
    session.execute(
        update(Outbox)
        .where(Outbox.id.in_(ids))
        .values(status=OutboxStatus.PENDING, attempts=0, message_id=None, sent_at=None)
    )
    session.commit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    # Most single actions end no turn and mail nobody (the bots of this game once
    # walked their developers 182 free moves in one turn): these reach five turn ends.
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--from-ply", type=int, default=540)
    parser.add_argument(
        "--whole-turns",
        action="store_true",
        help="submit each seat's run of moves at once, as a mail does, not one action each",
    )
    args = parser.parse_args()
    moves = play_bot_game("java", PLAYERS, SEED).game.to_record().moves
    runs = turns_of(moves) if args.whole_turns else actions_of(moves)
    turns = [turn for turn in runs if turn[0] > args.from_ply][: args.turns]
    if not turns:
        raise SystemExit(f"the bot game has {len(moves)} moves: no turn after {args.from_ply}")
    sink, port = Sink(), free_port()
    server = Controller(sink, hostname="127.0.0.1", port=port)
    server.start()
    scratch = tempfile.TemporaryDirectory(prefix="pbem-mail-bench-")
    folder = Path(scratch.name)
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "PBEM_LOG_LEVEL": "WARNING",
            "PBEM_DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "PBEM_BROKER_URL": "memory://",  # the commits' batches are handed to no worker
            "PBEM_SMTP_URL": f"smtp://127.0.0.1:{port}",
        }
    )
    counters = Counters(Counted("engine_game"), Counted("mail_board"), sink)
    unit = "turns" if args.whole_turns else "submissions of one action"
    print(f"java, {PLAYERS} players, {len(turns)} {unit} from ply {turns[0][0]}")
    columns = f"{'ms/mail':>7} {'cpu/mail':>8} {'replays':>7} {'boards':>6} {'conns':>5}"
    print(f"{'':5} {'':5} | {'row by row':^38} | {'batch':^38}")
    print(f"{'ply':>5} {'mails':>5} | {columns} | {columns}")
    paths = [Sending("row by row"), Sending("batch")]
    mails = 0
    with app.app_context(), get_db().session() as session:
        migrate.upgrade(get_db().engine)
        game = stored_game(session, moves, turns[0][0] - 1)
        for ply, seat, texts in turns:
            last_id = session.scalar(select(func.max(Outbox.id))) or 0
            submission = submit(session, game.seats[seat], "\n".join(texts), Channel.API)
            session.commit()
            outcome = process_submission(session, submission.id)
            assert outcome is not None and outcome.status == "accepted", outcome
            ids = list(session.scalars(select(Outbox.id).where(Outbox.id > last_id)))
            if not ids:  # an action in the middle of a turn tells nobody
                print(f"{ply:5d} {0:5d} | no mail")
                continue
            mails += len(ids)
            spent = []
            for path, batches in zip(paths, ([[i] for i in ids], [ids]), strict=True):
                unsent(session, ids)
                spent.append(path.send(session, batches, app.config, counters))
            print(f"{ply:5d} {len(ids):5d} | " + " | ".join(s.figures(len(ids)) for s in spent))
    server.stop()
    scratch.cleanup()
    if not mails:
        raise SystemExit(
            f"none of these {len(turns)} {unit} ended a turn, so none mailed anyone: "
            "give more --turns, or --whole-turns"
        )
    for path in paths:
        print(
            f"{path.name:10}: {mails} mails, {path.ms / mails:.1f} ms per mail "
            f"({path.cpu_ms / mails:.1f} ms CPU), {path.replays / len(turns):.2f} replays "
            f"and {path.boards / len(turns):.2f} boards drawn per submission, "
            f"{path.connections} SMTP connections"
        )


if __name__ == "__main__":
    main()
