"""The server as real processes, as the README and an administrator start it:
`pbem serve` on its embedded default, `pbem web` (gunicorn) and the other
commands in production settings; and talking to them over HTTP."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from pbem import create_app
from pbem.config import QUEUE_SETTINGS
from tests.mail.servers import free_port
from tests.server.conftest import wait_for


def pbem(*args: str) -> list[str]:
    """The command line of a `pbem` command of this environment."""
    return [str(Path(sys.executable).parent / "pbem"), *args]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def embedded_env(instance: Path, **settings: str) -> dict[str, str]:
    """The environment of a `pbem` command on its embedded default in `instance`."""
    env = {**os.environ, "PBEM_INSTANCE_PATH": str(instance), **settings}
    for name in ("PBEM_ENV", "PBEM_DATABASE_URL", "PBEM_BROKER_URL", "PBEM_BROKER_FOLDER"):
        env.pop(name, None)
    return env


def started_server(instance: Path, **settings: str) -> tuple[subprocess.Popen[str], int]:
    """`pbem serve` on its embedded default in `instance`, answering; and its port."""
    port = free_port()
    server = subprocess.Popen(
        pbem("serve", "--bind", f"127.0.0.1:{port}"),
        env=embedded_env(instance, **settings),
        # Started as a shell starts a background job (and as some test runners'
        # workers start children): with Ctrl-C ignored. An administrator's
        # `kill -INT` must still stop it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/"), 60, "the site to answer")
    except BaseException:
        server.kill()
        raise
    return server, port


def stopped(server: subprocess.Popen[str], how: signal.Signals) -> str:
    """Stop the server as an administrator would; its output. A server that
    does not stop prints every thread's stack (SIGUSR1) for the failure."""
    server.send_signal(how)
    try:
        return server.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        server.send_signal(signal.SIGUSR1)
        # faulthandler writes the stacks from its signal handler and marks no
        # end to wait for; this runs only for a test that has failed already.
        time.sleep(3)
        server.kill()
        output = server.communicate()[0]
        pytest.fail(f"the server did not stop on {how.name}; its output ends:\n{output[-8000:]}")


def app_for(env: dict[str, str]) -> Flask:
    """An app in this process on the database and queues of production
    settings (the defaults where they name none, as the processes take them)."""
    queues: dict[str, str] = {name: env[name] for name in QUEUE_SETTINGS if name in env}
    return create_app(
        {
            "SECRET_KEY": env["PBEM_SECRET_KEY"],
            "PBEM_DATABASE_URL": env["PBEM_DATABASE_URL"],
            "PBEM_BROKER_URL": env["PBEM_BROKER_URL"],
            **queues,
        }
    )


@contextmanager
def web_server(env: dict[str, str], workers: int = 2) -> Iterator[str]:
    """The real `pbem web` (gunicorn) on the database migrated to head; yields
    the address it listens on, PBEM_WEB_BIND."""
    subprocess.run(pbem("db", "upgrade"), env=env, check=True, capture_output=True)
    server = subprocess.Popen(
        pbem("web", "--workers", str(workers)),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = "http://" + env["PBEM_WEB_BIND"]
    try:
        wait_for(lambda: answers(base + "/"), 60, "pbem web to answer")
        yield base
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    # A worker that crashed (a segmentation fault) is replaced silently by
    # gunicorn; its log line is the only trace.
    assert "SIGSEGV" not in output and "exited with code" not in output, output[-3000:]
    assert "Traceback" not in output, output[-3000:]


def csrf_token(page: str) -> str:
    """The CSRF token of the form on a page, as a browser would send it."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, page[:500]
    return found.group(1)


class Api:
    """The JSON API of a running server, over HTTP with a player's token."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, token: str, body: Any = None) -> Any:
        request = urllib.request.Request(
            f"{self.base}/api/v1{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
