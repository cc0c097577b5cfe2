"""`benchmarks/pipeline.py --turns N` ends its steady phase only once every
kind of game has had a turn judged: a slow kind is measured too."""

from __future__ import annotations

import threading
from typing import Any, cast

from benchmarks.pipeline import Pacer, Run, Sent


def test_turns_enough_but_one_kind_unplayed_is_not_every_kind():
    nothing = cast(Any, None)  # the API and the database are not used here
    bench = Run(nothing, nothing, nothing, Pacer(None), threading.Event(), 1.0)
    bench.kinds = {"java 4p late", "taluva 3p"}
    bench.sent = [Sent(number, "taluva 3p", 0.1) for number in range(8)]
    assert bench.turns() == 8 and not bench.every_kind()
    bench.sent.append(Sent(8, "java 4p late", 0.1))
    assert bench.every_kind()
