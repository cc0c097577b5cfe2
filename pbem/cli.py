"""The `pbem` command: run the processes, migrate, manage users, play a demo."""

from __future__ import annotations

import faulthandler
import gc
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.loading import collector_held

with collector_held():  # the libraries the package itself does not load
    import click
    from flask import Flask, current_app
    from flask.cli import FlaskGroup, ScriptInfo, pass_script_info, with_appcontext
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from engine.bots import LEVELS
    from pbem import create_app, migrate
    from pbem.accounts.deletion import delete_account
    from pbem.accounts.suspension import restore, suspend
    from pbem.beat_lease import BEAT, HeldLease
    from pbem.clock.sweep import sweep as sweep_clocks
    from pbem.db import EXTENSION, Database, get_db
    from pbem.health import readiness
    from pbem.i18n import catalogues
    from pbem.logs import gunicorn_json_logging
    from pbem.mail.smtpd import controller
    from pbem.metrics.processes import process_ended, use_multiprocess_dir
    from pbem.models import Game, GameStatus, User
    from pbem.notify.push import new_keys
    from pbem.render.__main__ import main as render_main
    from pbem.services import accounts
    from pbem.services.errors import ServiceError
    from pbem.services.games import SeatSpec, create_game
    from pbem.services.rating_rebuild import rebuild_all
    from pbem.services.replay import engine_game, verify_game
    from pbem.services.snapshots import forget as forget_snapshots
    from worker.embedded import beat_thread, worker_threads


@click.group(cls=FlaskGroup, create_app=create_app)
def main() -> None:
    """pbem turn server. Settings come from PBEM_* environment variables."""


def process_command(*args: Any, **kwargs: Any) -> Any:
    """A command that runs a long-lived process. Unlike other commands it runs
    outside any app context: gunicorn would fork its web processes with one
    pushed, and every request in a process would then share it (`g` with the
    signed-in user and the CSRF token, the database session)."""
    return main.command(*args, with_appcontext=False, **kwargs)


@process_command()
@click.option("--bind", help="address:port (default PBEM_WEB_BIND)")
@click.option("--workers", type=int, help="web processes (default PBEM_WEB_WORKERS)")
@click.option("--dev", is_flag=True, help="Flask's development server with reloading instead")
@pass_script_info
def web(info: ScriptInfo, bind: str | None, workers: int | None, dev: bool) -> None:
    """Serve the site and the API."""
    app = info.load_app()
    bind = bind or app.config["PBEM_WEB_BIND"]
    if dev:
        host, _, port = bind.rpartition(":")
        app.run(host=host or "127.0.0.1", port=int(port), debug=True)
        return
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", bind)
            self.cfg.set("workers", workers or app.config["PBEM_WEB_WORKERS"])
            self.cfg.set("accesslog", "-")
            if app.config["PBEM_LOG_FORMAT"] == "json":
                self.cfg.set("logconfig_dict", gunicorn_json_logging())
            self.cfg.set("post_fork", lambda _server, _worker: get_db_of(app).dispose_after_fork())
            self.cfg.set("child_exit", lambda _server, worker: process_ended(worker.pid))

        def load(self) -> Flask:  # type: ignore[override]  # types-gunicorn: environ a MutableMapping, Flask wants a dict
            return app

    # The web processes count into one folder, summed at each scrape.
    use_multiprocess_dir(app.config["PBEM_METRICS_DIR"], f"web-{bind}")
    keep_out_of_collections()
    Server().run()


def keep_out_of_collections() -> None:
    """Move what building the app made out of the garbage collector's reach,
    as the modules were when they loaded (pbem/loading.py): its full
    collections then walk only what requests made, instead of pausing a
    request for tens of ms (the p95 of every page); forked web processes
    inherit it."""
    gc.collect()
    gc.freeze()


@process_command()
@click.option("--bind", help="address:port (default PBEM_WEB_BIND)")
@pass_script_info
def serve(info: ScriptInfo, bind: str | None) -> None:
    """Everything on one machine: migrate, then serve the site with a worker
    in this process. Sign-in links are printed here when no mail is set up."""
    from werkzeug.serving import make_server

    app = info.load_app()
    with app.app_context():
        migrate.upgrade(get_db().engine)
    host, _, port = (bind or app.config["PBEM_WEB_BIND"]).rpartition(":")
    host = host or "127.0.0.1"
    app.config["PBEM_WEB_BIND"] = f"{host}:{port}"  # mailed links point here
    celery_app = _celery(app)
    # Both stop it cleanly, even when started with Ctrl-C ignored (a shell's
    # background job is).
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    # `kill -USR1` prints every thread's stack: what a stuck server is doing.
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    keep_out_of_collections()
    with worker_threads(app), beat_thread(celery_app, _beat_schedule(app)):
        click.echo(f"pbem is running: open http://{host}:{port}/ in a browser (Ctrl-C stops it)")
        make_server(host, int(port), app, threaded=True).serve_forever()


def _interrupt(_signum: int, _frame: object) -> None:
    """Ctrl-C and a service manager's stop end `serve` (and `smtpd`) alike,
    so the worker finishes its task (the listener its message) and shuts down
    cleanly."""
    raise KeyboardInterrupt


def get_db_of(app: Flask) -> Database:
    return app.extensions[EXTENSION]


def _celery(app: Flask) -> Any:
    return app.extensions["celery"]


@process_command()
@click.option(
    "--concurrency",
    type=int,
    help="task processes (default PBEM_WORKER_CONCURRENCY; with --bots"
    " PBEM_BOT_CONCURRENCY, with --notices PBEM_NOTICE_CONCURRENCY)",
)
@click.option("--loglevel", default="INFO", show_default=True)
@click.option(
    "--bots", is_flag=True, help="think for bots (the PBEM_BOT_QUEUE) instead of the other tasks"
)
@click.option(
    "--notices",
    is_flag=True,
    help="send mail, webhooks and push (the PBEM_NOTICE_QUEUE) instead of the other tasks",
)
@pass_script_info
def worker(
    info: ScriptInfo, concurrency: int | None, loglevel: str, bots: bool, notices: bool
) -> None:
    """Process submissions; run as many as you like, on any machines. With
    --bots, think for bots, and with --notices, send what players are told,
    each in processes of their own so that a person's turn never waits
    behind a thinking bot or a slow receiver."""
    if bots and notices:
        raise click.UsageError("--bots and --notices are two workers: start one of each")
    app = info.load_app()
    config = app.config
    queue, default_concurrency = (
        (config["PBEM_BOT_QUEUE"], config["PBEM_BOT_CONCURRENCY"])
        if bots
        else (config["PBEM_NOTICE_QUEUE"], config["PBEM_NOTICE_CONCURRENCY"])
        if notices
        else (config["PBEM_TASK_QUEUE"], config["PBEM_WORKER_CONCURRENCY"])
    )
    if bots:
        # Its task processes inherit this: a bot thinks on the CPU that
        # people's turns leave free, on a machine shared with the web and workers.
        os.nice(config["PBEM_BOT_NICE"])
    # The bots count nothing of their own: their moves are judged like anyone's.
    bind_setting = "PBEM_NOTICE_METRICS_BIND" if notices else "PBEM_WORKER_METRICS_BIND"
    metrics_bind = None if bots else config[bind_setting]
    if metrics_bind:
        # Before the task processes are forked: they count into one folder.
        use_multiprocess_dir(config["PBEM_METRICS_DIR"], f"worker-{metrics_bind}")
        # Imported only now: prometheus_client takes its mode when first imported.
        from pbem.metrics import worker_endpoint

        worker_endpoint.serve(metrics_bind, config["PBEM_METRICS_TOKEN"])
    _celery(app).worker_main(
        [
            "worker",
            f"--hostname=pbem-{os.getpid()}@%h",
            f"--loglevel={loglevel}",
            f"--concurrency={concurrency or default_concurrency}",
            f"--queues={queue}",
        ]
    )


@process_command()
@click.option("--loglevel", default="INFO", show_default=True)
@pass_script_info
def beat(info: ScriptInfo, loglevel: str) -> None:
    """Run the periodic tasks. One beat runs per installation: a second one
    started waits, and takes over when the first stops (pbem.beat_lease)."""
    app = info.load_app()
    schedule = _beat_schedule(app)
    schedule.parent.mkdir(parents=True, exist_ok=True)
    lease = HeldLease(
        get_db_of(app),
        BEAT,
        app.config["PBEM_BEAT_LEASE_SECONDS"],
        on_lost=lambda: os.kill(os.getpid(), signal.SIGTERM),
    )
    # A stop (SIGTERM) at any moment, even before Celery's beat handles it,
    # lets the lease go, so a waiting beat takes over at once.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        lease.wait_to_take()
        lease.keep()
        _celery(app).start(["beat", f"--loglevel={loglevel}", f"--schedule={schedule}"])
    finally:
        lease.stop()


def _beat_schedule(app: Flask) -> Path:
    """Where beat remembers when each periodic task last ran."""
    return Path(app.instance_path) / "celerybeat-schedule"


@process_command()
@click.option("--bind", help="address:port (default PBEM_SMTPD_BIND)")
@click.option("--lmtp/--smtp", default=None, help="speak LMTP (default PBEM_SMTPD_LMTP)")
@pass_script_info
def smtpd(info: ScriptInfo, bind: str | None, lmtp: bool | None) -> None:
    """Receive players' replies by SMTP or LMTP (behind Postfix)."""
    app = info.load_app()
    host, _, port = (bind or app.config["PBEM_SMTPD_BIND"]).rpartition(":")
    lmtp = app.config["PBEM_SMTPD_LMTP"] if lmtp is None else lmtp
    listener = controller(app, host or "127.0.0.1", int(port), lmtp=lmtp)
    # Ctrl-C and systemd's KillSignal=SIGINT stop it even when started with
    # SIGINT ignored (a shell's background job), where Python raises nothing.
    signal.signal(signal.SIGINT, _interrupt)
    listener.start()
    click.echo(f"pbem smtpd: {'LMTP' if lmtp else 'SMTP'} on {host}:{port}; Ctrl-C stops")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        listener.stop()


@main.command(
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def render(args: tuple[str, ...]) -> None:
    """Draw a record's board as PNG: RECORD [--seat S] -o FILE."""
    raise SystemExit(render_main(list(args)))


@main.group()
def db() -> None:
    """Database schema migrations."""


@db.command("upgrade")
@click.argument("revision", default="head")
@with_appcontext
def db_upgrade(revision: str) -> None:
    """Bring the database schema up to REVISION (default: the newest)."""
    migrate.upgrade(get_db().engine, revision)
    click.echo(f"database at {revision}")


@db.command("downgrade")
@click.argument("revision")
@with_appcontext
def db_downgrade(revision: str) -> None:
    """Take the schema back to REVISION ('base' empties the database)."""
    migrate.downgrade(get_db().engine, revision)


@db.command("revision")
@click.option("-m", "--message", required=True)
@with_appcontext
def db_revision(message: str) -> None:
    """For developers: write a migration for changes to pbem/models.py."""
    migrate.make_revision(get_db().engine, message)


@main.group()
def user() -> None:
    """Users and their API tokens."""


@user.command("create")
@click.argument("email")
@click.option("--name", default="", help="shown to other players")
@click.option("--time-zone", default="UTC", show_default=True)
@click.option("--language", help="en, fr or cs (default: not chosen, pages follow the browser)")
@with_appcontext
def user_create(email: str, name: str, time_zone: str, language: str | None) -> None:
    with get_db().session() as session:
        try:
            created = accounts.create_user(session, email, name, time_zone, language)
        except ServiceError as exc:
            raise click.ClickException(str(exc)) from None
        session.commit()
        click.echo(f"user {created.id}: {created.name} <{created.email}>")


def _account(session: Session, email: str) -> User:
    try:
        found = accounts.user_by_email(session, email)
    except ServiceError as exc:
        raise click.ClickException(str(exc)) from None
    if found is None or found.deleted_at is not None:
        raise click.ClickException(f"no user {email}")
    return found


@user.command("token")
@click.argument("email")
@click.option("--label", default="", help="what the token is for")
@with_appcontext
def user_token(email: str, label: str) -> None:
    """Issue an API token (shown once; keep it)."""
    with get_db().session() as session:
        token = accounts.issue_api_token(session, _account(session, email), label)
        session.commit()
    click.echo(token)


def _account_change(email: str, change: Callable[[Session, User], None], done: str) -> None:
    """Apply an administrator's change to one account, in one transaction."""
    with get_db().session() as session:
        found = _account(session, email)
        try:
            change(session, found)
        except ServiceError as exc:
            raise click.ClickException(str(exc)) from None
        session.commit()
    click.echo(f"{email}: {done}")


@user.command("delete")
@click.argument("email")
@click.confirmation_option(prompt="Delete this account for good?")
@with_appcontext
def user_delete(email: str) -> None:
    """Delete an account for good: address, name, tokens, settings and mail are
    erased; finished games keep their records under "former player N"; a bot
    plays on in games under way; league places are withdrawn."""
    _account_change(email, delete_account, "deleted")
    get_db().forget_old_pages()


@user.command("suspend")
@click.argument("email")
@with_appcontext
def user_suspend(email: str) -> None:
    """Keep an account out (pages, API, mail); the stand-in bot plays its seats."""
    _account_change(email, suspend, "suspended")


@user.command("restore")
@click.argument("email")
@with_appcontext
def user_restore(email: str) -> None:
    """Let a suspended account back in; its seats are its own to play again."""
    _account_change(email, restore, "restored")


@user.command("admin")
@click.argument("email")
@click.option("--revoke", is_flag=True, help="take the role away instead")
@with_appcontext
def user_admin(email: str, revoke: bool) -> None:
    """Make the account an administrator (the administrators' page, removing any chat line)."""

    def set_role(_session: Session, found: User) -> None:
        found.is_admin = not revoke

    _account_change(email, set_role, "not an administrator" if revoke else "administrator")


@main.group()
def ratings() -> None:
    """Player ratings."""


@ratings.command("rebuild")
@with_appcontext
def ratings_rebuild() -> None:
    """Recompute every rating from all finished games, in the order they ended.

    For games that ended before ratings existed or after a change of the
    rating rules; running it again gives the same ratings."""
    with get_db().session() as session:
        for done in rebuild_all(session):
            click.echo(str(done))


@main.group()
def push() -> None:
    """Browser notifications (Web Push)."""


@push.command("keys")
def push_keys() -> None:
    """Print a new pair of VAPID keys as settings; browsers subscribed with
    the old public key must subscribe again."""
    private, public = new_keys()
    click.echo(f"PBEM_VAPID_PRIVATE_KEY={private}")
    click.echo(f"PBEM_VAPID_PUBLIC_KEY={public}")
    click.echo("PBEM_VAPID_SUBJECT=mailto:you@example.org  # who push services may contact")


@main.command()
@click.argument("games", nargs=-1)
@click.option("--all", "every", is_flag=True, help="every game that has started")
@with_appcontext
def verify(games: tuple[str, ...], every: bool) -> None:
    """Replay games from their first move and compare with what is stored.

    GAMES are game ids as in their pages' addresses (after `--`, since an id
    may begin with a dash). A game with a snapshot that
    disagrees with the replay has its snapshots dropped (the next turn stores a fresh one); other
    problems are printed, and the exit status is 1 when any was found."""
    if not games and not every:
        raise click.UsageError("name the games to verify, or --all")
    found = False
    with get_db().session() as session:
        query = select(Game).where(Game.status != GameStatus.OPEN).order_by(Game.id)
        if not every:
            query = query.where(Game.public_id.in_(games))
            missing = set(games) - set(
                session.scalars(select(Game.public_id).where(Game.public_id.in_(games)))
            )
            if missing:
                raise click.ClickException(f"no game {', '.join(sorted(missing))}")
        for game_id in session.scalars(query.with_only_columns(Game.id)).all():
            game = session.get_one(Game, game_id)
            problems = verify_game(game)
            if any(problem.startswith("snapshot") for problem in problems):
                forget_snapshots(session, game.id)
                session.commit()
            for problem in problems:
                click.echo(f"{game.public_id}: {problem}")
            found = found or bool(problems)
            session.expunge_all()  # one game's moves in memory at a time
            click.echo(f"{game.public_id}: {'problems found' if problems else 'ok'}")
    if found:
        raise SystemExit(1)


@main.command()
@with_appcontext
def check() -> None:
    """Print whether this installation can serve, as /readyz answers: the
    database, its migrations, the broker and whether a worker reads each
    queue that has work. Exit status 1 when it cannot, or a queue is unread."""
    found = readiness(current_app._get_current_object())  # type: ignore[attr-defined]  # Flask types current_app as the app, not its proxy
    click.echo(json.dumps(found.to_json(), indent=2))
    if not found.sound:
        raise SystemExit(1)


@main.command()
@with_appcontext
def sweep() -> None:
    """Sweep the clocks once now: send due reminders and digests, apply due timeouts.

    The beat does this every PBEM_SWEEP_SECONDS; running it besides is safe."""
    with get_db().session() as session:
        report = sweep_clocks(session)
    click.echo(str(report))


@main.command()
@click.option("--game", "ruleset", default="taluva", show_default=True)
@click.option("--players", default=2, show_default=True)
@click.option("--seed", help="the game's seed (random when left out)")
@click.option("--bot", type=click.Choice(LEVELS), default="random", show_default=True)
@click.option("--timeout", default=300.0, show_default=True, help="seconds to wait for the end")
@click.option(
    "--embedded-worker/--external-worker",
    default=True,
    help="run a worker in this process, or rely on `pbem worker` processes",
)
@with_appcontext
def demo(
    ruleset: str, players: int, seed: str | None, bot: str, timeout: float, embedded_worker: bool
) -> None:
    """Bots play a whole game through the submission pipeline."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # Flask types current_app as the app, not its proxy
    database = get_db()
    migrate.upgrade(database.engine)
    with database.session() as session:
        try:
            game = create_game(session, None, ruleset, [SeatSpec(bot=bot)] * players, seed=seed)
        except ServiceError as exc:
            raise click.ClickException(str(exc)) from None
        session.commit()
        game_id = game.id
    click.echo(f"game {game.public_id}: {players} bots play {ruleset}")
    if embedded_worker:
        with worker_threads(app):
            finished = _wait_for_end(database, game_id, timeout)
    else:
        finished = _wait_for_end(database, game_id, timeout)
    if not finished:
        raise click.ClickException(f"the game did not end within {timeout:g} s")
    with database.session() as session:
        _print_game(session.get_one(Game, game_id))


def _wait_for_end(database: Database, game_id: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with database.session() as session:
            if session.scalar(select(Game.status).where(Game.id == game_id)) == "finished":
                return True
        time.sleep(0.2)
    return False


def _print_game(game: Game) -> None:
    played = engine_game(game)
    for ply, (entry, move) in enumerate(zip(played.log, game.moves, strict=True), start=1):
        click.echo(f"{ply:4} {played.seats[entry.seat]} ({move.channel}): {entry.text}")
    result = played.result()
    assert result is not None
    winners = ", ".join(played.seats[s] for s in result.winners)
    click.echo(f"game over: {result.reason}; won by {winners}")


@main.group()
def translations() -> None:
    """The gettext catalogues in pbem/translations (a checkout's, not an install's)."""


@translations.command("update")
def translations_update() -> None:
    """Add the sources' new strings to every language's .po file."""
    catalogues.update()


@translations.command("check")
def translations_check() -> None:
    """List the strings some language lacks; exit 1 if there are any."""
    missing = catalogues.untranslated()
    for entry in missing:
        click.echo(f"{entry.area} {entry.language} {entry.problem}: {entry.msgid!r}")
    if missing:
        raise SystemExit(1)
