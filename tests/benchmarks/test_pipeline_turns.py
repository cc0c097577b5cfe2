"""`benchmarks/pipeline.py --turns N` ends its steady phase only once every
kind of game has had a turn judged, and the bots beside them have moved: a
slow kind is measured too."""

from __future__ import annotations

import argparse
import threading
from typing import Any, cast

import pytest

from benchmarks import pipeline
from benchmarks.pipeline import Pacer, Run, Sent


def judged_run(kinds: set[str]) -> Run:
    nothing = cast(Any, None)  # the API and the database are not used here
    bench = Run(nothing, nothing, nothing, Pacer(None), threading.Event(), 1.0)
    bench.kinds = kinds
    return bench


def test_turns_enough_but_one_kind_unplayed_is_not_every_kind():
    bench = judged_run({"java 4p late", "taluva 3p"})
    bench.sent = [Sent(number, "taluva 3p", 0.1) for number in range(8)]
    assert bench.turns() == 8 and not bench.every_kind()
    bench.sent.append(Sent(8, "java 4p late", 0.1))
    assert bench.every_kind()


def test_the_steady_phase_waits_for_the_bots_first_move(monkeypatch: pytest.MonkeyPatch):
    bench = judged_run({"taluva 3p"})
    bench.sent = [Sent(number, "taluva 3p", 0.1) for number in range(8)]
    asked: list[float] = []

    def bot_moves(_database: Any, _began: float, ended: float) -> int:
        asked.append(ended)
        return 0 if len(asked) < 3 else 1  # the bots move on the third look

    monkeypatch.setattr(pipeline, "bot_moves_applied", bot_moves)
    table = threading.Thread(target=bench.stop.wait)  # plays until the phase ends
    options = argparse.Namespace(turns=8, seconds=None, bot_games=1, drain=30.0)
    pipeline.steady_phase(bench, [table], options)
    table.join()
    assert len(asked) == 3 and bench.stop.is_set()
