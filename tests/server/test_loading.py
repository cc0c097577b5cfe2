"""A `pbem` command loads its modules with the cycle collector held off and
what they made frozen out of its reach (pbem/loading.py): its start-up does
not walk the loaded heap again and again."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.system  # starts interpreters of its own

MEASURE = """
import gc, json, sys
collections = []
gc.callbacks.append(lambda phase, info: phase == "stop" and collections.append(info["generation"]))
{before}
import pbem.cli
gc.callbacks.clear()
print(json.dumps({{
    "enabled": gc.isenabled(),
    "frozen": gc.get_freeze_count(),
    "tracked": len(gc.get_objects()),
    "collections": collections,
    "modules": len(sys.modules),
}}))
"""


def loaded(before: str = "") -> dict:
    """What a fresh interpreter reports after importing the commands."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE.format(before=before)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def test_the_commands_load_with_the_collector_held_and_freeze_what_they_made():
    after = loaded()
    assert after["enabled"]
    assert after["modules"] > 1000  # the app's libraries did load
    # What loading made is out of the collector's reach, not left for it to walk.
    assert after["frozen"] > 100_000 > after["tracked"]
    # Only the interpreter's own start-up is collected, and never in full.
    assert 2 not in after["collections"] and len(after["collections"]) < 10


def test_a_caller_that_holds_the_collector_off_keeps_it_off():
    """The tests' own collection holds it off and freezes when it is done."""
    after = loaded("gc.disable()")
    assert not after["enabled"]
    assert after["frozen"] == 0 and after["collections"] == []
