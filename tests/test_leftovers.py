"""tests/leftovers.py: a run that leaves compiled modules in the checkout, or
tasks on the default queues of the test Redis, fails and names them; one
that leaves neither passes."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator

import pytest
import redis

from tests.services import REDIS_URL

STARTS_A_COMMAND = """
import os, subprocess, sys

def test_starts_python():
    subprocess.run([sys.executable, "-c", "import helper"], env={ENV}, check=True)
"""

QUEUES_A_TASK = """
import json, os, redis

def test_queues_a_task():
    message = {"headers": {"task": "pbem.think_bot", "id": "left-behind"}}
    broker = redis.Redis.from_url(os.environ["PBEM_TEST_REDIS_URL"])
    broker.lpush(os.environ["PBEM_BOT_QUEUE"], json.dumps(message))
"""


@pytest.fixture
def checkout(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A checkout with a module to import, its compiled modules kept aside."""
    pytester.makepyfile(helper="VALUE = 1\n")
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(pytester.path / ".venv" / "pycache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # the test module, rewritten here
    return pytester


@pytest.fixture
def bot_queue(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A default bots' queue of this test's own on the test Redis, so no
    other run sees what is left on it."""
    queue = f"pbem-leftovers-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("PBEM_BOT_QUEUE", queue)
    monkeypatch.setenv("PBEM_TEST_REDIS_URL", REDIS_URL)
    yield queue
    redis.Redis.from_url(REDIS_URL).delete(queue)


def test_a_command_that_compiles_beside_the_sources_fails_the_run(checkout: pytest.Pytester):
    checkout.makepyfile(STARTS_A_COMMAND.replace("{ENV}", '{"PYTHONHASHSEED": "1"}'))
    run = checkout.runpytest("-p", "tests.leftovers")
    run.assert_outcomes(passed=1)
    assert run.ret == pytest.ExitCode.TESTS_FAILED
    run.stdout.fnmatch_lines(
        ["*compiled modules written into the checkout*", "*__pycache__/helper.*"]
    )


def test_a_command_that_keeps_to_the_prefix_passes(checkout: pytest.Pytester):
    checkout.makepyfile(STARTS_A_COMMAND.replace("{ENV}", "dict(os.environ)"))
    run = checkout.runpytest("-p", "tests.leftovers")
    assert run.ret == pytest.ExitCode.OK
    assert (checkout.path / ".venv" / "pycache").is_dir()


def test_a_task_left_on_a_default_queue_fails_the_run(
    checkout: pytest.Pytester, bot_queue: str
) -> None:
    checkout.makepyfile(QUEUES_A_TASK)
    run = checkout.runpytest("-p", "tests.leftovers")
    run.assert_outcomes(passed=1)
    assert run.ret == pytest.ExitCode.TESTS_FAILED
    run.stdout.fnmatch_lines(
        [
            "*tasks left on the test Redis's default queues*",
            f"{bot_queue}: pbem.think_bot (left-behind)",
        ]
    )
