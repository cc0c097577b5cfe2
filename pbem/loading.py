"""Loading the server's modules without the cycle collector.

Importing pbem's commands builds some 280,000 long-lived objects (modules,
classes, the tables' mappers, the rules' precomputed boards), and every
allocation threshold crossed on the way set off a collection that walked
the growing heap again: about a third of the CPU a `pbem` command spent
starting up. Nothing loaded is garbage worth collecting: the collector
waits until the modules are in, and what they made is then frozen out of
its reach (else its first collections would walk all of it again)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_held() -> Iterator[None]:
    """The cycle collector off inside; afterwards what was made is frozen and
    the collector is as it was (a caller that turned it off itself, as the
    tests' collection does, keeps it off and freezes when it is done)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()
