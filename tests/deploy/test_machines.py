"""pbem on five machines, each a network namespace on a bridge of the test's
own: "db" runs its own PostgreSQL and Redis on its own address; "web" (with
the mail door), two "worker" hosts (each sending mail too) and a "beat" run
pbem as deploy/install.sh installs it, each started as its systemd unit says (ExecStart, User,
EnvironmentFile, Environment, KillSignal), with the one pbem.env all machines
share. Two players play a whole Taluva game through the web host's API; one
worker host's cable is pulled in the middle of it and plugged in again. Every
submission must be applied exactly once, every mail sent exactly once, and
every service must stop cleanly as systemd stops it: the last worker while it
judges a move, which it still applies."""

from __future__ import annotations

import collections
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import create_engine, func, insert, select, text

from pbem import create_app
from pbem.models import Game, GameStatus, Move, Outbox, OutboxStatus, Seat, Submission
from pbem.services import accounts
from pbem.services.replay import verify_game
from tests.deploy.installation import (
    INSTALL,
    Layout,
    environment_file,
    layout,
    need_root,
    release_copy,
    run,
    unit_file,
)
from tests.deploy.network import Host, Network, Process, need_namespaces, network, wait_for_log
from tests.mail.servers import Capture
from tests.server.conftest import wait_for
from tests.server.postgres_locks import blocked_by
from tests.server.server_processes import Api

pytestmark = pytest.mark.system  # starts machines in network namespaces

HOSTS = ["db", "web", "worker1", "worker2", "beat"]
SECRET = uuid.uuid4().hex  # the database role's and Redis's password
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
SMTP_PORT = 2525
OUTAGE_SECONDS = 8
# Faster than an installation's defaults, so the test sees the sweeps at work:
# a submission or mail stuck on the unplugged host is handed on within seconds.
QUICK_SWEEPS = {
    "PBEM_SWEEP_SECONDS": "1",
    "PBEM_STALE_SUBMISSION_SECONDS": "3",
    "PBEM_MAIL_RETRY_SECONDS": "5",
    "PBEM_BEAT_LEASE_SECONDS": "30",
}


def postgres_programs() -> Path:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parts[-3])
    )
    if not found:
        pytest.skip("the db host runs Debian's PostgreSQL server, which is missing")
    return found[-1].parent


def as_user(user: str, *argv: str) -> list[str]:
    """`argv` as `user`: setpriv execs it, so the signals sent to the process reach it."""
    return [SETPRIV, f"--reuid={user}", f"--regid={user}", "--init-groups", "--", *argv]


@contextmanager
def database_host(host: Host, folder: Path, subnet: str) -> Iterator[tuple[str, str]]:
    """PostgreSQL and Redis of the db host, listening on its address only;
    yields pbem's database and broker URLs."""
    programs = postgres_programs()
    data, sockets = folder / "pgdata", folder / "pgrun"
    for made in (data, sockets):
        made.mkdir()
        shutil.chown(made, "postgres", "postgres")
    subprocess.run(
        [
            *as_user("postgres", str(programs / "initdb"), "-D", str(data), "-U", "postgres"),
            *("--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8"),
        ],
        check=True,
        capture_output=True,
    )
    with (data / "pg_hba.conf").open("a") as hba:
        hba.write(f"host all all {subnet} scram-sha-256\n")
    postgres = host.start(
        "postgres",
        [
            *as_user("postgres", str(programs / "postgres"), "-D", str(data)),
            *("-c", f"listen_addresses={host.address}", "-c", f"unix_socket_directories={sockets}"),
            *("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"),
        ],
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )
    admin = f"host={sockets} user=postgres dbname=postgres"
    wait_for(lambda: answers_postgres(admin, postgres), 60, "the db host's PostgreSQL")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"CREATE ROLE pbem LOGIN PASSWORD '{SECRET}'")
        connection.execute("CREATE DATABASE pbem OWNER pbem")
    host.start(
        "redis",
        [
            *("redis-server", "--bind", host.address, "--port", "6379", "--save", ""),
            *("--appendonly", "no", "--requirepass", SECRET, "--dir", str(folder)),
        ],
        env={"PATH": "/usr/bin:/bin"},
    )
    yield (
        f"postgresql+psycopg://pbem:{SECRET}@{host.address}:5432/pbem",
        f"redis://:{SECRET}@{host.address}:6379/0",
    )


def answers_postgres(dsn: str, postgres: Process) -> bool:
    assert postgres.popen.poll() is None, postgres.output()
    try:
        psycopg.connect(dsn, connect_timeout=2).close()
    except psycopg.OperationalError:
        return False
    return True


@contextmanager
def mail_sink(address: str) -> Iterator[Capture]:
    """The outgoing mail server every worker host sends to: at the test's own
    address on the bridge."""
    capture = Capture()
    controller = Controller(capture, hostname=address, port=SMTP_PORT)
    controller.start()
    try:
        yield capture
    finally:
        controller.stop()


def start_unit(host: Host, place: Layout, unit: str, instance: str = "") -> Process:
    """A service on `host` as systemd starts the installed unit: its user, its
    environment file and Environment= lines, its working folder, its ExecStart."""
    service = unit_file(place.unit_dir / unit)
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(place.state_dir)}
    for path in service["Service.EnvironmentFile"]:
        env |= environment_file(Path(path))
    for line in service.get("Service.Environment", []):
        env |= dict(pair.split("=", 1) for pair in shlex.split(line))
    (command,) = service["Service.ExecStart"]
    argv = shlex.split(command.replace("%i", instance).replace("%%", "%"))
    (user,) = service["Service.User"]
    (cwd,) = service["Service.WorkingDirectory"]
    name = unit.replace("@.", f"@{instance}.")
    return host.start(name, as_user(user, *argv), env, Path(cwd))


def stop_unit(process: Process, place: Layout, unit: str) -> int:
    service = unit_file(place.unit_dir / unit)
    signum = getattr(signal, service.get("Service.KillSignal", ["SIGTERM"])[0])
    timeout = float(service["Service.TimeoutStopSec"][0])
    return process.stop(signum, timeout)


def installed_for(net: Network, place: Layout, database: str, broker: str, release: Path) -> None:
    """install.sh, as the administrator runs it once per machine with the shared
    settings; the machines share this one's files here."""
    web = net.hosts["web"].address
    run(
        INSTALL,
        place.environment(
            PBEM_DATABASE_URL=database,
            PBEM_BROKER_URL=broker,
            PBEM_BASE_URL=f"http://{web}:5000",
            PBEM_WEB_BIND=f"{web}:5000",
            PBEM_TRUSTED_PROXIES="0",  # no nginx in front here
            PBEM_SMTP_URL=f"smtp://{net.gateway}:{SMTP_PORT}",
            PBEM_MAIL_DOMAIN="pbem.test",
            PBEM_LOG_FORMAT="text",
        ),
        str(release),
    )
    with place.env_file.open("a") as settings:
        settings.writelines(f"{name}={value}\n" for name, value in QUICK_SWEEPS.items())


def players(database: str, tag: str) -> dict[str, str]:
    """Ann and Bob, without quiet hours, each with an API token: name -> token."""
    app = create_app({"SECRET_KEY": "test", "PBEM_DATABASE_URL": database})
    tokens = {}
    with app.extensions["pbem.db"].session() as session:
        for name in ("Ann", "Bob"):
            user = accounts.create_user(session, f"{name.lower()}-{tag}@players.test", name)
            user.quiet_start = user.quiet_end = None
            tokens[name] = accounts.issue_api_token(session, user, "machines test")
        session.commit()
    app.extensions["pbem.db"].dispose()
    return tokens


class Players:
    """Both players at the web host's API, each sending the first legal move
    whenever it is their turn, one move a submission."""

    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.api = Api(base)
        self.tokens = tokens
        game = self.api.call(
            "POST", "/games", tokens["Ann"], {"ruleset": "taluva", "seats": ["me", "open"]}
        )
        self.game = game["id"]
        joined = self.api.call("POST", f"/games/{self.game}/join", tokens["Bob"], {})
        assert joined["status"] == "active", joined
        self.seats = {seat["position"]: seat["name"] for seat in joined["seats"]}
        assert self.seats == {0: "Ann", 1: "Bob"}, joined
        self.sent: list[int] = []

    def play_one(self) -> bool:
        """Send one move of the seat to act and wait until it is judged; False
        once the game is over."""
        sent = self.send_one()
        if sent is None:
            return False
        verdict = self.judged(*sent)
        assert verdict["status"] == "accepted", verdict
        return True

    def send_one(self) -> tuple[str, str] | None:
        """Send the first legal move of the seat to act: the submission's path
        and its player's token; None once the game is over."""
        for position, name in self.seats.items():
            seat = f"/games/{self.game}/seats/{position}"
            moves = self.api.call("GET", f"{seat}/legal", self.tokens[name])["moves"]
            if moves:
                sent = self.api.call(
                    "POST", f"{seat}/moves", self.tokens[name], {"moves": moves[:1]}
                )
                self.sent.append(sent["id"])
                return f"{seat}/submissions/{sent['id']}", self.tokens[name]
        return None

    def judged(self, path: str, token: str) -> dict[str, Any]:
        def verdict() -> dict[str, Any] | None:
            found = self.api.call("GET", path, token)
            return found if found["status"] != "pending" else None

        return wait_for(verdict, 90, f"{path} to be judged")


def test_five_machines_play_a_game_through_a_pulled_cable(tmp_path):
    need_root()
    need_namespaces()
    tag = uuid.uuid4().hex[:6]
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pbem-hosts-")))
        folder.chmod(0o755)
        # Entered before the hosts, so left after them: the user can only go
        # once its processes are gone.
        place = stack.enter_context(layout())
        net = stack.enter_context(network(HOSTS, tmp_path))
        subnet = f"10.213.{net.subnet}.0/24"
        database, broker = stack.enter_context(database_host(net.hosts["db"], folder, subnet))
        capture = stack.enter_context(mail_sink(net.gateway))
        installed_for(net, place, database, broker, release_copy(tmp_path / "release"))

        web_host = net.hosts["web"]
        services = [
            (web_host, "pbem-web.service", ""),
            (web_host, "pbem-smtpd.service", ""),
            (net.hosts["worker1"], "pbem-worker@.service", "1"),
            (net.hosts["worker2"], "pbem-worker@.service", "1"),
            (net.hosts["beat"], "pbem-beat.service", ""),
            # Mail goes out from both worker hosts, on a queue of its own.
            (net.hosts["worker1"], "pbem-notices.service", ""),
            (net.hosts["worker2"], "pbem-notices.service", ""),
        ]
        started = [(start_unit(host, place, unit, name), unit) for host, unit, name in services]
        base = f"http://{web_host.address}:5000"
        wait_for(lambda: ready(base), 90, "the web host to be ready")
        for process, _unit in [*started[2:4], *started[5:7]]:
            wait_for_log(process, " ready.", 90)
        wait_for_log(started[4][0], "beat lease taken", 60)

        tokens = players(database, tag)
        game = Players(base, tokens)
        outage = pull_a_cable_mid_game(game, net, started[2:4])
        assert outage.pulled, "the game ended before the cable was pulled"
        check_exactly_once(database, game, capture)

        (web, _), (smtpd, _), (worker1, _), (worker2, _), (beat, _), *notices = started
        for process, unit in [
            (beat, "pbem-beat.service"),
            (worker1, "pbem-worker@.service"),
            *notices,
        ]:
            assert stop_unit(process, place, unit) == 0, process.output()[-3000:]
        a_stop_waits_for_the_task_under_way(Players(base, tokens), database, worker2, place)
        for process, unit in ((smtpd, "pbem-smtpd.service"), (web, "pbem-web.service")):
            assert stop_unit(process, place, unit) == 0, process.output()[-3000:]
        assert "Traceback" not in web.output(), web.output()[-3000:]
        each_mail_arrived_once(capture)


def a_stop_waits_for_the_task_under_way(
    game: Players, database: str, worker: Process, place: Layout
) -> None:
    """The last worker is stopped as systemd stops it while its task waits for
    the game's row: the task still finishes, the move is applied by it, and
    the worker then ends cleanly."""
    unit = unit_file(place.unit_dir / "pbem-worker@.service")
    engine = create_engine(database)
    holder = engine.connect()
    try:
        # The game's next move, written and not committed: the web still
        # stores the submission under the game's lock (it writes no move),
        # and the worker waits on the unique ply to write the move it judged.
        game_id, seat_id = holder.execute(
            select(Game.id, Seat.id)
            .join(Seat, Seat.game_id == Game.id)
            .where(Game.public_id == game.game)
        ).first()
        plies = holder.scalar(select(func.count()).where(Move.game_id == game_id))
        holder.execute(
            insert(Move).values(
                game_id=game_id, ply=plies + 1, seat_id=seat_id, text="held", channel="api"
            )
        )
        holder_pid = holder.scalar(text("SELECT pg_backend_pid()"))
        sent = game.send_one()
        assert sent is not None
        wait_for(lambda: blocked_by(engine, holder_pid), 60, "the task to wait for the game")
        worker.popen.send_signal(getattr(signal, unit.get("Service.KillSignal", ["SIGTERM"])[0]))
        # Its shutdown has begun while the task still waits: only then is the
        # game's row let go, so the task can only finish if the worker waits.
        wait_for_log(worker, "Warm shutdown", 30)
        assert worker.popen.poll() is None, "the worker did not wait for its task"
        assert blocked_by(engine, holder_pid), "the task no longer waits for the game"
    finally:
        holder.rollback()
        holder.close()
    code = worker.popen.wait(timeout=float(unit["Service.TimeoutStopSec"][0]))
    assert code == 0, worker.output()[-3000:]
    assert game.judged(*sent)["status"] == "accepted"
    assert f"submission {game.sent[-1]} accepted" in worker.output()
    engine.dispose()


def ready(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/readyz", timeout=3) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


class Outage:
    """One worker host's cable pulled for OUTAGE_SECONDS while the game goes on."""

    def __init__(self) -> None:
        self.pulled = False
        self.plugged = threading.Event()

    def end(self, host: Host) -> None:
        host.plug()
        self.plugged.set()


def pull_a_cable_mid_game(
    game: Players, net: Network, workers: list[tuple[Process, str]]
) -> Outage:
    """Play the whole game; after the tenth move, the worker host that took the
    latest task loses its link, and gets it back OUTAGE_SECONDS later."""
    outage = Outage()
    timer: threading.Timer | None = None
    try:
        while game.play_one():
            if len(game.sent) == 10:
                judge = f"submission {game.sent[-1]} accepted"
                latest = next((p for p, _ in workers if judge in p.output()), workers[0][0])
                host = next(h for h in net.hosts.values() if latest.name.endswith(f"on {h.name}"))
                host.unplug()
                outage.pulled = True
                timer = threading.Timer(OUTAGE_SECONDS, outage.end, [host])
                timer.start()
        assert outage.plugged.wait(OUTAGE_SECONDS + 5)
    finally:
        if timer is not None:
            timer.cancel()
            for host in net.hosts.values():
                host.plug()
    return outage


def check_exactly_once(database: str, game: Players, capture: Capture) -> None:
    """Every submission applied once (one move each, the game replays), and
    every mail the outbox holds sent: at the sink by its Message-ID (and only
    once: each_mail_arrived_once, when no sender is left)."""
    app = create_app({"SECRET_KEY": "test", "PBEM_DATABASE_URL": database})
    db = app.extensions["pbem.db"]
    try:
        with db.session() as session:
            played = session.scalar(select(Game).where(Game.public_id == game.game))
            assert played is not None and played.status == GameStatus.FINISHED
            moves = session.scalar(
                select(func.count()).select_from(Move).where(Move.game_id == played.id)
            )
            submissions = session.scalars(
                select(Submission).where(Submission.game_id == played.id)
            ).all()
            assert sorted(s.id for s in submissions) == sorted(game.sent)
            assert {s.status for s in submissions} == {"accepted"}
            assert moves == len(game.sent) == 48
            assert verify_game(played) == []

            def all_sent() -> bool:
                session.expire_all()
                waiting = session.scalar(
                    select(func.count())
                    .select_from(Outbox)
                    .where(Outbox.status != OutboxStatus.SENT)
                )
                return waiting == 0

            wait_for(all_sent, 90, "every mail to be sent")
            sent = session.scalars(select(Outbox.message_id)).all()
        with capture.changed:
            arrived = {str(m["Message-ID"]) for m in capture.messages}
        assert len(sent) >= len(game.sent) // 2, sent  # a "your turn" mail a turn at least
        assert arrived == set(sent)
    finally:
        db.dispose()


def each_mail_arrived_once(capture: Capture) -> None:
    """Called once every service has stopped: no copy can arrive any more."""
    with capture.changed:
        arrived = collections.Counter(str(m["Message-ID"]) for m in capture.messages)
    twice = {message_id: n for message_id, n in arrived.items() if n > 1}
    assert not twice, f"sent more than once: {twice}"
