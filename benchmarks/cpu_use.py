"""Where a benchmark's CPU goes: the CPU seconds of groups of processes over
a window, read from /proc (Linux).

Turns a second depend on how fast the machine is that day (a shared VM's
speed varies from run to run); the CPU each part of the site spent per turn
says what a change saved, and where the rest goes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# Fields of /proc/stat's "cpu" line that are work: user, nice, system, irq, softirq, steal.
BUSY_FIELDS = (0, 1, 2, 5, 6, 7)

Groups = Callable[[], dict[str, list[int]]]


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU a process has used, None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # the name in brackets may hold spaces
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children(pid: int) -> list[int]:
    """The process's children (of any of its threads); none once it is gone."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def tree(pid: int) -> list[int]:
    """The process and all its descendants."""
    return [pid] + [pid for child in children(pid) for pid in tree(child)]


def named(*names: str) -> list[int]:
    """Every process whose command name is one of `names` (a server's processes)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def machine_busy() -> float:
    """CPU seconds the whole machine has worked, on all its cores."""
    values = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    return sum(int(values[i]) for i in BUSY_FIELDS) / CLOCK_TICKS


def _sample(pids: Iterable[int]) -> dict[int, float]:
    return {pid: seconds for pid in pids if (seconds := cpu_seconds(pid)) is not None}


@dataclass
class CpuWindow:
    """CPU per group between `begin` and `end`. A process started in the
    window counts whole; one that ended in it is missed (said in the docs of
    the caller's figures: worker task processes live on here)."""

    groups: Groups
    _start: dict[str, dict[int, float]] = field(default_factory=dict)
    _machine: float = 0.0

    def begin(self) -> None:
        self._start = {name: _sample(pids) for name, pids in self.groups().items()}
        self._machine = machine_busy()

    def end(self) -> tuple[dict[str, float], float]:
        """CPU seconds per group, and the whole machine's."""
        spent = {}
        for name, pids in self.groups().items():
            before = self._start.get(name, {})
            now = _sample(pids)
            spent[name] = sum(seconds - before.get(pid, 0.0) for pid, seconds in now.items())
        return spent, machine_busy() - self._machine
