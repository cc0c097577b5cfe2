"""Counters summed over a process tree: gunicorn's web processes, Celery's
prefork children. prometheus_client's multiprocess mode keeps each process's
values in files of a shared folder, read together at a scrape."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"


def use_multiprocess_dir(base: str, name: str) -> Path:
    """Empty `base/name` and make it this process tree's folder. Call before
    anything records a metric, in the process that forks the others. The
    folder is emptied at each start: values of a previous run would be added
    to this one's."""
    values = sys.modules.get("prometheus_client.values")
    if values is not None and values.ValueClass.__name__ != "MultiProcessValue":
        raise RuntimeError("prometheus_client was imported before its multiprocess folder was set")
    folder = Path(base) / re.sub(r"[^A-Za-z0-9.-]+", "_", name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.environ[ENV] = str(folder)
    return folder


def in_multiprocess_mode() -> bool:
    return bool(os.environ.get(ENV))


def process_ended(pid: int) -> None:
    """gunicorn's child_exit: drop the values that describe a live process only."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid)
