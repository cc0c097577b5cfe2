"""tests/checkout_guard.py: a command a test starts that compiles into the
checkout fails the run; one that keeps to PYTHONPYCACHEPREFIX does not."""

from __future__ import annotations

import sys

import pytest

STARTS_A_COMMAND = """
import os, subprocess, sys

def test_starts_python():
    subprocess.run([sys.executable, "-c", "import helper"], env={ENV}, check=True)
"""


@pytest.fixture
def checkout(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A checkout with a module to import, its compiled modules kept aside."""
    pytester.makepyfile(helper="VALUE = 1\n")
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(pytester.path / ".venv" / "pycache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # the test module, rewritten here
    return pytester


def test_a_command_that_compiles_beside_the_sources_fails_the_run(checkout: pytest.Pytester):
    checkout.makepyfile(STARTS_A_COMMAND.replace("{ENV}", '{"PYTHONHASHSEED": "1"}'))
    run = checkout.runpytest("-p", "tests.checkout_guard")
    run.assert_outcomes(passed=1)
    assert run.ret == pytest.ExitCode.TESTS_FAILED
    run.stdout.fnmatch_lines(
        ["*compiled modules written into the checkout*", "*__pycache__/helper.*"]
    )


def test_a_command_that_keeps_to_the_prefix_passes(checkout: pytest.Pytester):
    checkout.makepyfile(STARTS_A_COMMAND.replace("{ENV}", "dict(os.environ)"))
    run = checkout.runpytest("-p", "tests.checkout_guard")
    assert run.ret == pytest.ExitCode.OK
    assert (checkout.path / ".venv" / "pycache").is_dir()
