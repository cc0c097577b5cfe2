"""Celery bound to a Flask app, after Flask's "Background Tasks with Celery" pattern."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from celery import Celery, Task
from celery.signals import worker_process_init
from flask import Flask

import pbem.mail.tasks  # noqa: F401  (registers the mail tasks)
import worker.tasks  # noqa: F401  (registers the shared tasks)
from pbem import task_names
from pbem.broker_check import BROKER_WAIT_SECONDS, is_redis

# How often a worker on the embedded default's folder queue looks for a new
# message. Kombu's 1 s held each hop of a turn (submission, judging, a bot's
# thought) up to a second; a look is one listing of a small folder, so ten a
# second cost an idle worker next to nothing.
FOLDER_POLL_SECONDS = 0.1


def beat_schedule(config: dict[str, Any]) -> dict[str, Any]:
    sweep = float(config["PBEM_SWEEP_SECONDS"])
    every = {
        "requeue-stale-submissions": (task_names.REQUEUE_STALE, sweep),
        "requeue-outbox": (task_names.REQUEUE_OUTBOX, sweep),
        "requeue-inbound": (task_names.REQUEUE_INBOUND, sweep),
        "forget-inbound-raw": (task_names.FORGET_INBOUND_RAW, sweep),
        "forget-outbox": (task_names.FORGET_OUTBOX, sweep),
        "prune-pictures": (task_names.PRUNE_PICTURES, sweep),
        "sweep-clocks": (task_names.SWEEP_CLOCKS, sweep),
        "requeue-webhooks": (task_names.REQUEUE_WEBHOOKS, sweep),
    }
    if config.get("PBEM_IMAP_URL"):
        every["poll-imap"] = (task_names.POLL_IMAP, float(config["PBEM_IMAP_POLL_SECONDS"]))
    return {name: {"task": task, "schedule": seconds} for name, (task, seconds) in every.items()}


# What is sent to people and their services (mail, webhooks, push) and the
# sweeps that hand such rows on again: on the notices' queue, so a receiver
# that is slow or down never holds a worker that judges turns.
NOTICE_TASKS = (
    task_names.SEND_MAILS,
    task_names.SEND_MAIL,
    task_names.REQUEUE_OUTBOX,
    task_names.SEND_WEBHOOK,
    task_names.SEND_PUSH,
    task_names.REQUEUE_WEBHOOKS,
)


def task_routes(config: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Bots think on a queue of their own, so a person's turn never waits
    behind a thinking bot (pbem.services.bot_thinking); notices go out from
    another; everything else runs on the tasks' queue."""
    routes = {task_names.THINK_BOT: {"queue": config["PBEM_BOT_QUEUE"]}}
    routes.update({name: {"queue": config["PBEM_NOTICE_QUEUE"]} for name in NOTICE_TASKS})
    return routes


def celery_settings(config: dict[str, Any]) -> dict[str, Any]:
    broker_url = config["PBEM_BROKER_URL"]
    settings: dict[str, Any] = {
        "broker_url": broker_url,
        "broker_connection_retry_on_startup": True,
        "task_default_queue": config["PBEM_TASK_QUEUE"],
        "task_routes": task_routes(config),
        "task_ignore_result": True,
        # Tasks are idempotent, so a task whose worker died is run again.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "worker_hijack_root_logger": False,
        "beat_schedule": beat_schedule(config),
    }
    if broker_url.startswith("filesystem:"):
        folder = Path(config["PBEM_BROKER_FOLDER"])
        (folder / "processed").mkdir(parents=True, exist_ok=True)
        settings["broker_transport"] = "worker.folder_queue:Transport"
        settings["broker_transport_options"] = {
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "processed_folder": str(folder / "processed"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
            "polling_interval": FOLDER_POLL_SECONDS,
        }
    elif is_redis(broker_url):
        # Celery's connect timeout (broker_connection_timeout) is not passed
        # to Redis's client, which otherwise waits for the system's: a page
        # handing a stored move to a broker that never answered hung 134 s.
        # Celery's own bounds the tries of one hand-on (4 s by default).
        settings["broker_transport_options"] = {"socket_connect_timeout": BROKER_WAIT_SECONDS}
        settings["broker_connection_timeout"] = BROKER_WAIT_SECONDS
    return settings


def celery_init_app(app: Flask) -> Celery:
    celery_app = _celery_of(app, app.config["PBEM_TASK_QUEUE"])
    celery_app.set_default()
    app.extensions["celery"] = celery_app

    @worker_process_init.connect(weak=False)
    def _fresh_connections_after_fork(**_kwargs: object) -> None:
        app.extensions["pbem.db"].dispose_after_fork()

    return celery_app


def queue_celery(app: Flask, queue: str) -> Celery:
    """A Celery app of its own for a worker thread reading `queue` beside the
    tasks' (worker.embedded): the queues a worker reads are its app's, so two
    workers of one process reading different queues need two apps."""
    return _celery_of(app, queue)


def _celery_of(app: Flask, default_queue: str) -> Celery:
    class FlaskTask(Task[Any, Any]):
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context():
                return self.run(*args, **kwargs)

    celery_app: Celery = Celery(app.name, task_cls=FlaskTask)
    celery_app.config_from_object(
        celery_settings(app.config) | {"task_default_queue": default_queue}
    )
    return celery_app
