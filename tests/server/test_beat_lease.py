"""Exactly one beat: the lease, and two `pbem beat` processes started as an
administrator would start them by mistake."""

from __future__ import annotations

import signal
import subprocess
import threading
import uuid
from datetime import timedelta

import pytest
import time_machine

from pbem.beat_lease import HeldLease, current_holder, release, take
from pbem.db import get_db
from pbem.models import utcnow
from tests.server.conftest import wait_for
from tests.server.server_processes import app_for, pbem


def test_a_lease_is_held_by_one_until_it_runs_out_or_is_released(app):
    name = f"test-{uuid.uuid4().hex[:8]}"
    with app.app_context():
        database = get_db()
    assert take(database, name, "first", 60)
    assert not take(database, name, "second", 60)
    assert take(database, name, "first", 60)  # renewed
    release(database, name, "first")
    assert take(database, name, "second", 1)
    assert not take(database, name, "first", 60)
    with time_machine.travel(utcnow() + timedelta(seconds=1.1)):  # it ran out
        assert take(database, name, "first", 60)
    assert current_holder(database, name).holder == "first"


def test_a_waiting_process_takes_over_as_soon_as_the_lease_runs_out(app):
    """Not up to a third of a lease later: a holder killed just after renewing
    is replaced within the lease, as the documentation promises."""
    name = f"test-{uuid.uuid4().hex[:8]}"
    with app.app_context():
        database = get_db()
    seconds, renewed_ago = 3, 0.9
    with time_machine.travel(utcnow() - timedelta(seconds=renewed_ago), tick=False):
        assert take(database, name, "killed", seconds)  # its last renewal, then it died
    expires = current_holder(database, name).expires_at
    waiting = HeldLease(database, name, seconds, on_lost=lambda: None)
    waiting.wait_to_take()
    taken = utcnow()
    waiting.stop()
    assert expires <= taken < expires + timedelta(seconds=0.5), taken - expires


def holder_pid(env: dict[str, str]) -> int | None:
    lease = current_holder(app_for(env).extensions["pbem.db"], "beat")
    return int(lease.holder.split(":")[1]) if lease is not None else None


def output_lines(process: subprocess.Popen) -> list[str]:
    """The lines `process` writes, gathered as it writes them by a thread."""
    lines: list[str] = []

    def gather() -> None:
        for line in process.stdout:
            lines.append(line)

    threading.Thread(target=gather, daemon=True).start()
    return lines


@pytest.mark.system
def test_a_second_beat_waits_and_takes_over_when_the_first_dies(production_env):
    env = {**production_env, "PBEM_BEAT_LEASE_SECONDS": "3"}
    subprocess.run(pbem("db", "upgrade"), env=env, check=True, capture_output=True)
    database = app_for(env).extensions["pbem.db"]
    started = []
    try:
        first = subprocess.Popen(
            pbem("beat"), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        started.append(first)
        wait_for(lambda: holder_pid(env) == first.pid, 30, "the first beat to take the lease")
        second = subprocess.Popen(
            pbem("beat"), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        started.append(second)
        said = output_lines(second)
        waiting = "another beat holds the lease"
        wait_for(lambda: any(waiting in line for line in said), 30, "the second beat to wait")
        found = current_holder(database, "beat").expires_at

        def renewed_past_its_end() -> bool:
            return utcnow() > found and current_holder(database, "beat").expires_at > found

        # The lease the second found runs out: the first has renewed it, the second waits.
        wait_for(renewed_past_its_end, 15, "the lease the second beat found to run out")
        assert holder_pid(env) == first.pid and second.poll() is None
        first.send_signal(signal.SIGKILL)  # dies without releasing
        first.wait(timeout=10)
        wait_for(lambda: holder_pid(env) == second.pid, 15, "the second beat to take over")
        second.terminate()
        second.wait(timeout=30)
        output = "".join(said)
        assert "another beat holds the lease" in output and "beat lease taken" in output, output
        assert "Traceback" not in output, output
        released = current_holder(database, "beat")
        assert released.expires_at < utcnow()  # a clean stop lets the next take over at once
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
