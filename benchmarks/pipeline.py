"""End-to-end capacity on the production processes (issue 12): prints figures, asserts nothing.

    .venv/bin/python -m benchmarks.pipeline [--games 20 | --light] [--seconds 60]
        [--rate R] [--turns 5000] [--workers 2] [--concurrency C] [--web-workers W]
        [--notices] [--hostile 6,200] [--bot-games 10 --bot-level strong]

Run it from the checkout's root (`-m`: it reuses the tests' helpers). It needs
PostgreSQL and Redis as the tests do (deploy/test-services.sh starts them;
PBEM_TEST_POSTGRES_URL and PBEM_TEST_REDIS_URL point it at others).

What it does, as an administrator would run the site (docs/deployment.md):
  - makes a scratch PostgreSQL database and claims an empty Redis database
    number (not the tests') as the broker; the first is dropped and the
    second flushed at the end, also after Ctrl-C, SIGTERM or a failure;
  - `pbem db upgrade`, then `pbem web` (gunicorn), `--workers` `pbem worker`
    processes, one `pbem worker --bots` (the bots' own queue), one `pbem
    worker --notices` (mail, webhooks and push, on their own queue), `pbem beat`,
    and an SMTP sink on loopback (aiosmtpd, in this
    process) that notes when each mail arrives, with its Message-ID, Subject,
    X-Pbem-Game and X-Pbem-Move;
  - one user with an API token per seat. Every setting is the production
    default but two: users have no quiet hours (else mail waits for the
    morning) and PBEM_API_WRITE_LIMIT is lifted (one seat sends a whole Java
    turn, action by action, faster than 60 a minute);
  - the mix of games, created through the API (POST /games, then the other
    players join; `--notices`: each player also has a JSON webhook and a
    browser push subscription, both to a receiver on loopback in this
    process, so a turn notifies by mail, push and webhook; `--hostile N,M`:
    the first player also has N webhooks to a receiver that answers a byte
    every 2 s, and presses "test" on each of them every 10 s, and M browser
    devices whose push service never answers, on 127.0.0.2 and .3): Java 4p past
    move 400, Taluva 3p, Samurai 3p, Java 2p fresh, round robin; `--light`
    is the first two. The Java 4p game is brought past move 400 before the
    clock starts: random legal moves chosen by the engine's bot on the full
    state, stored as moves through the models up to the end of a turn, then
    the pipeline's own `after_change` tells the next seat (the setup time is
    printed). The clock starts once the games' first mails are sent. A game
    that ends is replaced by a new one of its kind;
  - `--bot-games N`: N games more, every seat a bot of `--bot-level` (2
    players; Taluva, Samurai and Java in turn), made through the API before
    the clock starts and followed by a new one when one ends: bots thinking
    beside the people's games, on the bots' worker. Their moves are counted
    apart (bot moves applied, per second); every other figure is the people's;
  - each game is played by a thread of this process through the API, as a
    client would: whose turn (GET the game), the seat's legal moves (GET
    .../legal), one of them at random (so every move is legal), sent (POST
    .../moves); then it waits until a worker has judged it (one query for
    all games every 50 ms, so the waiting loads no web process) and goes on.
    A turn here is one submission of one move, the API's unit: a Java turn
    of several actions is several submissions (and one "your turn" mail).

Stages, per submission, in seconds (p50, p95, max; overall and per kind of game):
  - submit:  the POST's round trip, on this process's clock;
  - picked:  stored (Submission.created_at) -> a worker starts judging it
             (Submission.processed_at): the time in the queue;
  - applied: stored -> its moves are written (Move.created_at, in the
             judging transaction);
  - mail:    stored -> the "your turn" mail it caused reaches the SMTP sink
             (the outbox row queued at the submission's last ply, matched to
             the sink by its Message-ID; submissions that leave the turn with
             the same seat cause none).
Turns/s counts submissions applied during the steady phase (`--seconds`, or
until `--turns` are applied and every kind of game has had one), divided by
its length; then the games stop and
the work in flight is waited for (`--drain`). "Drawn after the game had moved
on" counts "your turn" mails whose X-Pbem-Move is later than the ply they were
queued at: written from a later position, since mail is composed when sent. Resident memory (RSS,
from /proc) of each `pbem worker` process and its task processes is printed
before and after; `--turns 5000` is the long run for the memory target.
The CPU seconds each group of processes spent in the steady phase (the web,
the workers, the bots' and the notices' workers, the beat, PostgreSQL and Redis,
this process) are printed with their ms per people's turn applied
(benchmarks/cpu_use.py): turns/s rises and falls with the speed a shared
machine has that day, the CPU a turn costs much less.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import signal
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy import func, select
from sqlalchemy.orm import Session as DbSession

import engine
from benchmarks.cpu_use import CpuWindow, children, named, tree
from engine.bots import LEVELS
from engine.bots.random_play import RandomBot
from pbem.db import Database, lock_game
from pbem.models import (
    Game,
    Move,
    Outbox,
    OutboxStatus,
    PushSubscription,
    Submission,
    SubmissionStatus,
    User,
    Webhook,
)
from pbem.notify.hooks import new_secret
from pbem.notify.push import new_keys
from pbem.services import accounts
from pbem.services.notifications import YOUR_TURN
from pbem.services.pipeline import after_change
from pbem.services.replay import engine_game
from tests.mail.servers import free_port
from tests.server.conftest import scratch_database, wait_for
from tests.server.notify.receiver import Dripper, Receiver, dripping, receiving
from tests.server.server_processes import answers, app_for, pbem
from tests.services import REDIS_URL

API = "/api/v1"
# Hosts of their own, so backing one off spares the friendly receiver and the other.
DRIPPING_HOST, SILENT_HOST = "127.0.0.2", "127.0.0.3"
WATCH_SECONDS = 0.05  # how often the judged submissions are looked up
CLAIM_KEY = "pbem-benchmark"  # marks the Redis database this run took
SEED_ATTEMPTS = 10


@dataclass(frozen=True)
class Kind:
    """A kind of game in the mix; `seed_plies`: brought past that many moves first."""

    label: str
    ruleset: str
    players: int
    seed_plies: int = 0


MIX = (
    Kind("java 4p late", "java", 4, seed_plies=400),
    Kind("taluva 3p", "taluva", 3),
    Kind("samurai 3p", "samurai", 3),
    Kind("java 2p", "java", 2),
)


@dataclass
class Sent:
    """A submission this benchmark made."""

    id: int
    kind: str
    submit_seconds: float


@dataclass
class Arrival:
    at: float
    message_id: str
    game: str
    move: str
    subject: str


class MailSink:
    """aiosmtpd handler noting each mail's arrival; headers only, the board is not parsed."""

    def __init__(self) -> None:
        self.arrivals: list[Arrival] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        at = time.time()
        headers = BytesHeaderParser().parsebytes(envelope.original_content or b"")
        self.arrivals.append(
            Arrival(
                at,
                str(headers["Message-ID"]),
                str(headers["X-Pbem-Game"]),
                str(headers["X-Pbem-Move"]),
                str(headers["Subject"]),
            )
        )
        return "250 OK"


@contextmanager
def mail_sink() -> Iterator[tuple[MailSink, int]]:
    sink, port = MailSink(), free_port()
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd: a line per session
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


@contextmanager
def claimed_redis_database() -> Iterator[str]:
    """The URL of an empty database of the tests' Redis server (not the tests'
    own number), claimed for this run and flushed at the end."""
    server = redis.Redis.from_url(REDIS_URL)
    databases = server.config_get("databases")["databases"]
    assert databases is not None
    count = int(databases)
    taken = server.connection_pool.connection_kwargs.get("db", 0)
    server_url = urlsplit(REDIS_URL)
    for number in range(count - 1, -1, -1):
        url = server_url._replace(path=f"/{number}").geturl()
        candidate = redis.Redis.from_url(url)
        if (
            number != taken
            and candidate.dbsize() == 0
            and candidate.set(CLAIM_KEY, os.getpid(), nx=True)
        ):
            break
    else:
        raise RuntimeError(f"no empty Redis database on {server_url.netloc}")
    try:
        yield url
    finally:
        candidate.flushdb()


def says_ready(log: Path) -> bool:
    """A Celery worker's log once it reads its queues."""
    return "ready." in log_tail(log)


def log_tail(path: Path, chars: int = 3000) -> str:
    return path.read_text(errors="replace")[-chars:]


@dataclass
class Cluster:
    """The running production processes."""

    processes: list[subprocess.Popen[bytes]]  # web and beat too
    workers: list[subprocess.Popen[bytes]]
    roles: dict[str, subprocess.Popen[bytes]]  # "web", "beat", "bots", "notices"

    def pids(self) -> list[int]:
        """Every process's, the workers' task processes too."""
        tasks = [child for worker in self.workers for child in children(worker.pid)]
        return [process.pid for process in self.processes] + tasks


@contextmanager
def production_processes(env: dict[str, str], options: argparse.Namespace) -> Iterator[Cluster]:
    """`pbem db upgrade`, then web, workers and beat; all stopped at the end.
    Their output goes to files, shown when something fails."""
    logs = Path(env["PBEM_INSTANCE_PATH"]) / "logs"
    logs.mkdir()
    upgrade = subprocess.run(pbem("db", "upgrade"), env=env, capture_output=True, text=True)
    if upgrade.returncode:
        raise RuntimeError(f"pbem db upgrade failed:\n{upgrade.stdout}{upgrade.stderr}")
    processes: list[tuple[subprocess.Popen[bytes], Path]] = []
    roles: dict[str, subprocess.Popen[bytes]] = {}

    def start(name: str, *args: str) -> subprocess.Popen[bytes]:
        path = logs / f"{name}.log"
        with path.open("wb") as output:
            process = subprocess.Popen(pbem(*args), env=env, stdout=output, stderr=output)
        processes.append((process, path))
        roles[name] = process
        return process

    web = ["web"] + (["--workers", str(options.web_workers)] if options.web_workers else [])
    concurrency = ["--concurrency", str(options.concurrency)] if options.concurrency else []
    try:
        start("web", *web)
        start("beat", "beat")
        workers = [start(f"worker-{n}", "worker", *concurrency) for n in range(options.workers)]
        start("bots", "worker", "--bots")
        start("notices", "worker", "--notices")
        wait_for(lambda: answers(env["PBEM_BASE_URL"] + "/"), 60, "pbem web to answer")
        for name in [f"worker-{n}" for n in range(options.workers)] + ["bots", "notices"]:
            wait_for(partial(says_ready, logs / f"{name}.log"), 60, name)
        yield Cluster([process for process, _ in processes], workers, roles)
    except Exception:
        for process, path in processes:
            print(f"--- {path.name} (exit {process.poll()}) ends:\n{log_tail(path)}")
        raise
    finally:
        for process, _ in processes:
            process.terminate()
        for process, _ in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process, None once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    kilobytes = next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))
    return int(kilobytes) / 1024


def cpu_groups(cluster: Cluster) -> dict[str, list[int]]:
    """The groups of processes whose CPU is reported, each with its children."""
    return {
        "pbem web": tree(cluster.roles["web"].pid),
        "pbem worker": [pid for worker in cluster.workers for pid in tree(worker.pid)],
        "pbem worker --bots": tree(cluster.roles["bots"].pid),
        "pbem worker --notices": tree(cluster.roles["notices"].pid),
        "pbem beat": tree(cluster.roles["beat"].pid),
        "PostgreSQL (the whole server)": named("postgres"),
        "Redis (the whole server)": named("redis-server"),
        "this process: the players' clients, the SMTP sink": [os.getpid()],
    }


def print_cpu(spent: dict[str, float], busy: float, seconds: float, turns: int) -> None:
    print(
        f"CPU in the steady phase, seconds, and ms per people's turn applied (the machine: "
        f"{busy:.1f} s busy of {seconds * (os.cpu_count() or 1):.1f} on its cores):"
    )
    for name, used in spent.items():
        print(f"  {name:52} {used:6.1f} {1000 * used / max(turns, 1):7.1f}")


def worker_memory(cluster: Cluster) -> list[str]:
    """One line per worker: MB of its main process and of each task process, by pid."""
    return [
        f"worker {number}: "
        + ", ".join(
            f"{'main' if pid == worker.pid else 'task'} {pid}: {rss_mb(pid) or 0:.0f}"
            for pid in [worker.pid, *children(worker.pid)]
        )
        for number, worker in enumerate(cluster.workers, start=1)
    ]


class Api:
    """The site's API as a client sees it; one fresh connection per call."""

    def __init__(self, base: str) -> None:
        self.base = base + API

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def expect(self, status: int, method: str, path: str, token: str, body: Any = None) -> Any:
        got, answer = self.call(method, path, token, body)
        if got != status:
            raise RuntimeError(f"{method} {path}: {got} {answer}")
        return answer


class Judged:
    """Wakes the players whose submission a worker has judged; one query for all."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.waiting: dict[int, threading.Event] = {}
        self.lock = threading.Lock()

    def expect(self, submission_id: int) -> threading.Event:
        with self.lock:
            return self.waiting.setdefault(submission_id, threading.Event())

    def watch(self, stop: threading.Event) -> None:
        while not stop.wait(WATCH_SECONDS):
            with self.lock:
                ids = list(self.waiting)
            if not ids:
                continue
            with self.database.session() as session:
                done = session.scalars(
                    select(Submission.id).where(
                        Submission.id.in_(ids), Submission.status != SubmissionStatus.PENDING
                    )
                ).all()
            with self.lock:
                for submission_id in done:
                    self.waiting.pop(submission_id).set()


class Pacer:
    """At most `rate` submissions a second over all games; None: no limit."""

    def __init__(self, rate: float | None) -> None:
        self.gap = 1 / rate if rate else 0.0
        self.next = time.monotonic()
        self.lock = threading.Lock()

    def wait(self) -> None:
        if not self.gap:
            return
        with self.lock:
            now = time.monotonic()
            at, self.next = max(now, self.next), max(now, self.next) + self.gap
        time.sleep(max(0.0, at - now))


@dataclass
class Run:
    """What the players share and what they leave behind."""

    api: Api
    database: Database
    judged: Judged
    pacer: Pacer
    stop: threading.Event
    timeout: float
    sent: list[Sent] = field(default_factory=list)
    games: dict[int, str] = field(default_factory=dict)  # public ids by id
    seeding: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    kinds: set[str] = field(default_factory=set)  # the labels of the games played

    def turns(self) -> int:
        """Submissions judged so far (every one is legal, so each is applied)."""
        return len(self.sent)

    def every_kind(self) -> bool:
        """Whether every kind of game played has had a submission judged."""
        with self.lock:
            return self.kinds <= {sent.kind for sent in self.sent}


@dataclass
class Hostile:
    """What the first player points pbem at with `--hostile`: receivers that
    hold every request as long as pbem lets them."""

    hooks: int
    devices: int
    dribbler: Dripper  # answers a byte at a time
    silent: Dripper  # answers nothing
    hook_ids: list[int] = field(default_factory=list)


def new_players(
    database: Database, count: int, receiver: Receiver | None, hostile: Hostile | None = None
) -> list[str]:
    """API tokens of `count` new users without quiet hours; with a receiver,
    each has a JSON webhook and a push subscription to it; the first has the
    hostile receivers' hooks and devices too."""
    tag = uuid.uuid4().hex[:8]
    tokens = []
    with database.session() as session:
        for number in range(count):
            user = accounts.create_user(
                session, f"bench-{number}-{tag}@example.org", f"Player {number}"
            )
            user.quiet_start, user.quiet_end = accounts.parse_quiet_hours(None)
            session.flush()
            tokens.append(accounts.issue_api_token(session, user, "benchmark"))
            if receiver is not None:
                session.add(
                    Webhook(user_id=user.id, url=receiver.url, format="json", secret=new_secret())
                )
                session.add(device(user, f"{receiver.url}/push/{number}"))
            if hostile is not None and number == 0:
                point_at_hostile(session, user, hostile)
        session.commit()
    return tokens


def device(user: User, endpoint: str) -> PushSubscription:
    """A browser's subscription: any P-256 point does for its key."""
    _private, point = new_keys()
    return PushSubscription(
        user_id=user.id, endpoint=endpoint, p256dh=point, auth="c2l4dGVlbiBieXRlcyBhdXRo"
    )


def point_at_hostile(session: DbSession, user: User, hostile: Hostile) -> None:
    hooks = [
        Webhook(user_id=user.id, url=f"{hostile.dribbler.url}/{n}", format="json", secret="s" * 64)
        for n in range(hostile.hooks)
    ]
    session.add_all(hooks)
    session.add_all(device(user, f"{hostile.silent.url}/push/{n}") for n in range(hostile.devices))
    session.flush()
    hostile.hook_ids.extend(hook.id for hook in hooks)


def press_test(run: Run, token: str, hostile: Hostile) -> None:
    """Test every hostile hook every 10 s until the run stops."""
    while not run.stop.is_set():
        for hook_id in hostile.hook_ids:
            try:
                run.api.call("POST", f"/webhooks/{hook_id}/test", token)
            except Exception as exc:
                run.errors.append(f"testing hook {hook_id}: {exc}")
        run.stop.wait(10)


def bot_moves(start: engine.Game, plies: int) -> engine.Game:
    """The game played on by the engine's random bot to the end of the turn
    that passes `plies`. Random play sometimes ends a game sooner; then the bot
    tries again with another seed."""
    for attempt in range(SEED_ATTEMPTS):
        played = start.copy()
        bot = RandomBot(f"{start.seed}/benchmark/{attempt}")
        while not played.state.is_over():
            seat = min(played.state.to_act())
            played.push(seat, bot.choose(played.state, seat))
            if len(played.log) >= plies and not played.state.turn_goes_on(seat):
                return played
    raise RuntimeError(f"{SEED_ATTEMPTS} random {start.ruleset.name} games ended before {plies}")


def seed_moves(database: Database, public_id: str, plies: int) -> None:
    """Random legal moves, chosen by the engine's bot on the full state, stored
    as the game's log; then the pipeline tells the seat to act, as after any move."""
    with database.session() as session:
        game = lock_game(
            session,
            session.execute(select(Game.id).where(Game.public_id == public_id)).scalar_one(),
        )
        played = bot_moves(engine_game(game), plies)
        seat_ids = {seat.position: seat.id for seat in game.seats}
        game.moves.extend(
            Move(ply=ply, seat_id=seat_ids[entry.seat], text=entry.text, channel="api")
            for ply, entry in enumerate(played.log, start=1)
        )
        after_change(session, game, played, frozenset())
        session.commit()


class Table:
    """One game of the mix at a time, played by its seats' tokens; a finished
    game is followed by a new one of the same kind."""

    def __init__(self, run: Run, kind: Kind, tokens: list[str], number: int) -> None:
        self.run, self.kind, self.tokens = run, kind, tokens
        self.rng = random.Random(f"benchmark-{number}")

    def new_game(self) -> str:
        api, (creator, *others) = self.run.api, self.tokens
        seats = ["me"] + ["open"] * len(others)
        body = {"ruleset": self.kind.ruleset, "seats": seats, "title": self.kind.label}
        public_id: str = api.expect(201, "POST", "/games", creator, body)["id"]
        for position, token in enumerate(others, start=1):
            api.expect(200, "POST", f"/games/{public_id}/join", token, {"position": position})
        if self.kind.seed_plies:
            started = time.perf_counter()
            seed_moves(self.run.database, public_id, self.kind.seed_plies)
            self.run.seeding.append(time.perf_counter() - started)
        with self.run.database.session() as session:
            game_id = session.execute(
                select(Game.id).where(Game.public_id == public_id)
            ).scalar_one()
        with self.run.lock:
            self.run.games[game_id] = public_id
        return public_id

    def play(self, public_id: str) -> None:
        """Until the game ends or the run stops."""
        api, run = self.run.api, self.run
        while not run.stop.is_set():
            game = api.expect(200, "GET", f"/games/{public_id}", self.tokens[0])
            if game["status"] != "active":
                return
            position = game["to_act"][0]
            token = self.tokens[position]
            seat = f"/games/{public_id}/seats/{position}"
            legal = api.expect(200, "GET", f"{seat}/legal", token)["moves"]
            run.pacer.wait()
            if run.stop.is_set():
                return
            started = time.perf_counter()
            answer = api.expect(
                202, "POST", f"{seat}/moves", token, {"moves": [self.rng.choice(legal)]}
            )
            elapsed = time.perf_counter() - started
            if not run.judged.expect(answer["id"]).wait(run.timeout):
                raise RuntimeError(f"submission {answer['id']} not judged within {run.timeout:g} s")
            with run.lock:
                run.sent.append(Sent(answer["id"], self.kind.label, elapsed))

    def __call__(self, first: str) -> None:
        try:
            self.play(first)
            while not self.run.stop.is_set():
                self.play(self.new_game())
        except Exception as exc:  # reported with the figures; the other games go on
            with self.run.lock:
                self.run.errors.append(f"{self.kind.label}: {exc}")


BOT_RULESETS = ("taluva", "samurai", "java")


class BotTable:
    """A game only bots of one level play, thinking on the bots' queue beside
    the people's games; a new one once it ends, until the run stops."""

    def __init__(self, run: Run, token: str, level: str, number: int) -> None:
        self.run, self.token, self.level = run, token, level
        self.ruleset = BOT_RULESETS[number % len(BOT_RULESETS)]

    def new_game(self) -> str:
        body = {"ruleset": self.ruleset, "seats": [f"bot:{self.level}"] * 2, "title": "bots"}
        game_id: str = self.run.api.expect(201, "POST", "/games", self.token, body)["id"]
        return game_id

    def __call__(self, first: str) -> None:
        public_id = first
        try:
            while not self.run.stop.wait(1):
                game = self.run.api.expect(200, "GET", f"/games/{public_id}", self.token)
                if game["status"] == "finished":
                    public_id = self.new_game()
        except Exception as exc:  # reported with the figures; the other games go on
            with self.run.lock:
                self.run.errors.append(f"bots' {self.ruleset}: {exc}")


def bot_moves_applied(database: Database, began: float, ended: float) -> int:
    """Moves the bots made between `began` and `ended` (epoch seconds)."""
    with database.session() as session:
        return session.execute(
            select(func.count())
            .select_from(Move)
            .where(
                Move.channel == "bot",
                Move.created_at >= datetime.fromtimestamp(began, UTC),
                Move.created_at <= datetime.fromtimestamp(ended, UTC),
            )
        ).scalar_one()


@dataclass
class Timing:
    """One submission's stages, seconds from being stored; None: did not happen."""

    kind: str
    status: str
    submit: float
    picked: float | None
    applied: float | None
    mail: float | None
    applied_at: float | None


def timings(run: Run, sink: MailSink) -> tuple[list[Timing], dict[str, int]]:
    """The stages of every submission, from the database and the sink; and mail counts."""
    arrivals: dict[str, Arrival] = {}
    for arrival in sink.arrivals:
        arrivals.setdefault(arrival.message_id, arrival)
    ids = [sent.id for sent in run.sent]
    with run.database.session() as session:
        submissions = {
            s.id: s for s in session.scalars(select(Submission).where(Submission.id.in_(ids)))
        }
        written = {
            row.submission_id: row
            for row in session.execute(
                select(
                    Move.submission_id,
                    Move.game_id,
                    func.max(Move.ply).label("ply"),
                    func.max(Move.created_at).label("at"),
                )
                .where(Move.submission_id.in_(ids))
                .group_by(Move.submission_id, Move.game_id)
            )
        }
        rows = session.scalars(select(Outbox).where(Outbox.kind == YOUR_TURN)).all()
    told: dict[tuple[int | None, int], list[Outbox]] = defaultdict(list)
    for row in rows:
        told[row.game_id, row.payload["ply"]].append(row)
    counts = {"queued": 0, "arrived": 0, "drawn later": 0, "misfiled": 0}
    found = []
    for sent in run.sent:
        submission = submissions[sent.id]
        stored = submission.created_at.timestamp()
        moves = written.get(sent.id)
        mail = None
        if moves is not None:
            mails = told.get((moves.game_id, moves.ply), [])
            got = [arrivals[r.message_id] for r in mails if r.message_id in arrivals]
            counts["queued"] += len(mails)
            counts["arrived"] += len(got)
            counts["drawn later"] += sum(1 for a in got if a.move != str(moves.ply + 1))
            public_id = run.games[moves.game_id]
            counts["misfiled"] += sum(
                1 for a in got if a.game != public_id or not a.subject.endswith("your turn")
            )
            mail = min(a.at for a in got) - stored if got else None
        picked = submission.processed_at
        applied_at = moves.at.timestamp() if moves else None
        found.append(
            Timing(
                sent.kind,
                submission.status,
                sent.submit_seconds,
                picked.timestamp() - stored if picked else None,
                applied_at - stored if applied_at else None,
                mail,
                applied_at,
            )
        )
    return found, counts


STAGES = ("submit", "picked", "applied", "mail")


def spread(values: list[float]) -> str:
    """n, p50, p95 and max of a stage, in seconds."""
    if not values:
        return f"{0:6d} {'-':>7} {'-':>7} {'-':>7}"
    p95 = (
        statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    )
    return f"{len(values):6d} {statistics.median(values):7.3f} {p95:7.3f} {max(values):7.3f}"


def print_stages(found: list[Timing]) -> None:
    print("seconds; submit: the POST's round trip, the others from the submission being stored")
    print(f"{'game':16} {'stage':11} {'n':>6} {'p50':>7} {'p95':>7} {'max':>7}")
    groups = {"all": found} | {
        kind.label: [t for t in found if t.kind == kind.label]
        for kind in MIX
        if any(t.kind == kind.label for t in found)
    }
    for name, group in groups.items():
        for stage in STAGES:
            values = [v for t in group if (v := getattr(t, stage)) is not None]
            print(f"{name:16} {stage:11} {spread(values)}")


def unsent_mail(database: Database) -> int:
    with database.session() as session:
        return session.execute(
            select(func.count())
            .select_from(Outbox)
            .where(Outbox.status.in_([OutboxStatus.PENDING, OutboxStatus.SENDING]))
        ).scalar_one()


def mail_sent(database: Database, seconds: float) -> int:
    """Wait until every mail queued is sent, at most `seconds`; the mails still unsent."""
    deadline = time.monotonic() + seconds
    while (left := unsent_mail(database)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def settle(run: Run, tables: list[threading.Thread], drain: float) -> int:
    """Wait for the submissions in flight and the mail they caused; the mails still unsent."""
    for table in tables:
        table.join(run.timeout + 10)
    return mail_sent(run.database, drain)


@dataclass
class Report:
    turns_per_second: float
    timings: list[Timing]
    mails: dict[str, int]
    errors: list[str]
    database: str  # the scratch database's URL, dropped by now
    pids: list[int]  # of the processes started, stopped by now
    bot_moves: int  # applied in the steady phase, by the --bot-games' bots
    cpu: dict[str, float]  # CPU seconds in the steady phase, per group (cpu_groups)


def steady_phase(
    run: Run, tables: list[threading.Thread], options: argparse.Namespace
) -> tuple[float, float]:
    """Let the games play for `--seconds`, or until `--turns` are applied,
    every kind of game has had one and the `--bot-games`' bots have moved, or
    failed to within `--drain` seconds more (a slow kind is measured too,
    however loaded the machine); its start and end (epoch seconds)."""
    began, started = time.time(), time.monotonic()
    turns_done: float | None = None

    def bots_moved(waited: float) -> bool:
        if not options.bot_games or waited > options.drain:
            return True
        return bot_moves_applied(run.database, began, time.time()) > 0

    for table in tables:
        table.start()
    reported = started
    while any(table.is_alive() for table in tables):
        now = time.monotonic()
        if options.turns is None and now - started >= options.seconds:
            break
        if options.turns is not None and run.turns() >= options.turns and run.every_kind():
            turns_done = turns_done or now
            if bots_moved(now - turns_done):
                break
        if now - reported >= 30:
            reported = now
            print(f"  {now - started:5.0f} s: {run.turns()} turns applied", flush=True)
        time.sleep(0.1)
    run.stop.set()
    return began, time.time()


def environment(database_url: str, broker: str, smtp_port: int, instance: Path) -> dict[str, str]:
    """The settings an administrator exports (docs/configuration.md)."""
    port = free_port()
    return {
        **os.environ,
        "PBEM_ENV": "production",
        "PBEM_SECRET_KEY": uuid.uuid4().hex,
        "PBEM_DATABASE_URL": database_url,
        "PBEM_BROKER_URL": broker,
        "PBEM_TASK_QUEUE": "pbem",
        "PBEM_BASE_URL": f"http://127.0.0.1:{port}",
        "PBEM_WEB_BIND": f"127.0.0.1:{port}",
        "PBEM_INSTANCE_PATH": str(instance),
        "PBEM_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
        "PBEM_API_WRITE_LIMIT": "1000000 per minute",
    }


def hostile_counts(text: str) -> tuple[int, int]:
    hooks, _, devices = text.partition(",")
    return int(hooks), int(devices or 0)


def run(options: argparse.Namespace) -> Report:
    """The whole benchmark: prints its figures and returns them."""
    kinds = [MIX[n % len(MIX)] for n in range(options.games)]
    mix = ", ".join(f"{kinds.count(kind)} {kind.label}" for kind in MIX if kind in kinds)
    print(
        f"{options.games} games ({mix}); "
        f"{options.workers} pbem worker x concurrency {options.concurrency or 'default'}, "
        f"pbem web x {options.web_workers or 'default'}; rate "
        f"{f'{options.rate:g}/s' if options.rate else 'as fast as the games allow'}",
        flush=True,
    )
    with ExitStack() as stack:
        database_url = stack.enter_context(scratch_database())
        broker = stack.enter_context(claimed_redis_database())
        sink, smtp_port = stack.enter_context(mail_sink())
        instance = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pbem-bench-")))
        env = environment(database_url, broker, smtp_port, instance)
        receiver = stack.enter_context(receiving()) if options.notices else None
        allowed = [] if receiver is None else [receiver.allowed]
        hostile = None
        if options.hostile is not None:
            hooks, devices = options.hostile
            dribbler = stack.enter_context(dripping(2.0, DRIPPING_HOST))
            silent = stack.enter_context(dripping(3600.0, SILENT_HOST))
            hostile = Hostile(hooks, devices, dribbler, silent)
            allowed += [dribbler.allowed, silent.allowed]
        if allowed:
            private, public = new_keys()
            env.update(
                PBEM_WEBHOOK_ALLOWED_NETWORKS=",".join(allowed),
                PBEM_VAPID_PRIVATE_KEY=private,
                PBEM_VAPID_PUBLIC_KEY=public,
                PBEM_VAPID_SUBJECT="mailto:bench@example.org",
            )
        clock = time.perf_counter()
        cluster = stack.enter_context(production_processes(env, options))
        print(f"processes up in {time.perf_counter() - clock:.1f} s", flush=True)
        database = app_for(env).extensions["pbem.db"]
        stack.callback(database.dispose)
        watching = threading.Event()
        stack.callback(watching.set)
        bench = Run(
            Api(env["PBEM_BASE_URL"]),
            database,
            Judged(database),
            Pacer(options.rate),
            threading.Event(),
            options.drain,
        )
        threading.Thread(target=bench.judged.watch, args=(watching,), daemon=True).start()
        clock = time.perf_counter()
        players = new_players(database, sum(kind.players for kind in kinds) + 1, receiver, hostile)
        tokens = iter(players)
        tables = []
        for number, kind in enumerate(kinds):
            table = Table(bench, kind, [next(tokens) for _ in range(kind.players)], number)
            bench.kinds.add(kind.label)
            first = table.new_game()
            tables.append(threading.Thread(target=table, args=(first,), daemon=True))
        bots_owner = next(tokens)
        bot_threads = []
        for number in range(options.bot_games):
            bot_table = BotTable(bench, bots_owner, options.bot_level, number)
            first = bot_table.new_game()
            bot_threads.append(threading.Thread(target=bot_table, args=(first,), daemon=True))
        seeded = (
            f"; seeding one java 4p game: {statistics.median(bench.seeding):.1f} s"
            if bench.seeding
            else ""
        )
        print(f"users and games made in {time.perf_counter() - clock:.1f} s{seeded}", flush=True)
        clock = time.perf_counter()
        mail_sent(database, options.drain)  # the games' first mails, before the clock starts
        print(f"their first mails sent in {time.perf_counter() - clock:.1f} s", flush=True)
        before = worker_memory(cluster)
        load = os.getloadavg()[0]
        for thread in bot_threads:
            thread.start()
        if hostile is not None:
            pressing = threading.Thread(target=press_test, args=(bench, players[0], hostile))
            pressing.daemon = True
            pressing.start()
        cpu = CpuWindow(partial(cpu_groups, cluster))
        cpu.begin()
        window = steady_phase(bench, tables, options)
        spent, busy = cpu.end()
        load_after = os.getloadavg()[0]
        unsent = settle(bench, tables, options.drain)
        after = worker_memory(cluster)
        pids = cluster.pids()
        found, mails = timings(bench, sink)
        by_bots = bot_moves_applied(database, *window)
    began, ended = window
    turns = sum(1 for t in found if t.applied_at and began <= t.applied_at <= ended)
    report = Report(
        turns / (ended - began), found, mails, bench.errors, database_url, pids, by_bots, spent
    )
    rejected = sum(1 for t in found if t.status != SubmissionStatus.ACCEPTED)
    print(
        f"{len(bench.games)} games played, {len(bench.games) - options.games} begun after one ended"
    )
    print(
        f"machine load (1-minute average) {load:.1f} as the steady phase began, "
        f"{load_after:.1f} as it ended ({os.cpu_count()} cores)"
    )
    print(
        f"steady phase {ended - began:.1f} s: {turns} turns applied, "
        f"{report.turns_per_second:.2f} turns/s; {len(found)} submissions in all, "
        f"{rejected} not accepted"
    )
    if options.bot_games:
        print(
            f"beside them {options.bot_games} games of {options.bot_level} bots: {by_bots} bot "
            f"moves applied in the steady phase, {by_bots / (ended - began):.2f}/s"
        )
    print_stages(found)
    print_cpu(spent, busy, ended - began, turns)
    print(
        f"'your turn' mails: {mails['arrived']} of {mails['queued']} queued reached the sink, "
        f"{mails['drawn later']} of them drawn after the game had moved on, "
        f"{mails['misfiled']} not a 'your turn' of that game (X-Pbem-Game, Subject); "
        f"{unsent} mails of any kind unsent after {options.drain:g} s of draining"
    )
    if hostile is not None:
        print(
            f"hostile receivers asked: {hostile.dribbler.connections} times by their"
            f" {hostile.hooks} hooks, {hostile.silent.connections} times by their"
            f" {hostile.devices} devices"
        )
    if receiver is not None:
        pushes = sum(1 for r in receiver.requests if r.path.startswith("/push/"))
        print(f"webhook posts received: {len(receiver.requests) - pushes}; pushes: {pushes}")
    print("worker RSS, MB, before the steady phase:")
    print("\n".join(f"  {line}" for line in before))
    print(f"after it ({len(found)} submissions):")
    print("\n".join(f"  {line}" for line in after))
    for error in bench.errors:
        print(f"error: {error}")
    return report


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games played at once")
    parser.add_argument("--light", action="store_true", help="2 games (java 4p late, taluva 3p)")
    parser.add_argument("--seconds", type=float, default=60, help="length of the steady phase")
    parser.add_argument(
        "--turns",
        type=int,
        help="play until this many turns are applied (one of each kind at least) instead",
    )
    parser.add_argument("--rate", type=float, help="submissions per second at most (all games)")
    parser.add_argument("--workers", type=int, default=2, help="pbem worker processes")
    parser.add_argument("--concurrency", type=int, help="task processes per worker")
    parser.add_argument("--web-workers", type=int, help="gunicorn processes of pbem web")
    parser.add_argument(
        "--notices", action="store_true", help="every player also has a webhook and push"
    )
    parser.add_argument(
        "--hostile",
        type=hostile_counts,
        metavar="N,M",
        help="the first player also points N webhooks at a receiver that answers a byte every"
        " 2 s (and tests them every 10 s) and has M browser devices whose push never answers",
    )
    parser.add_argument(
        "--drain", type=float, default=120, help="seconds to wait for work in flight at the end"
    )
    parser.add_argument(
        "--bot-games", type=int, default=0, help="games of bots alone thinking beside the people's"
    )
    parser.add_argument(
        "--bot-level", choices=LEVELS, default="strong", help="the level of those bots"
    )
    options = parser.parse_args(argv)
    if options.light:
        options.games = 2
    return options


def _interrupt(_signum: int, _frame: object) -> None:
    """Ctrl-C and `kill` clean up alike, also in a background job (started with
    Ctrl-C ignored)."""
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        run(arguments())
    except KeyboardInterrupt:
        raise SystemExit("interrupted: processes stopped, scratch database dropped") from None


if __name__ == "__main__":
    main()
