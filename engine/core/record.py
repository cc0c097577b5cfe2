"""The game record file: everything needed to replay a game, as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from engine.core import message_texts  # noqa: F401  (the templates used here)
from engine.core.errors import RecordError

FORMAT = "pbem-record/1"


class LoggedMove(NamedTuple):
    """One move of the log; a named tuple, since a long game's log is rebuilt
    from stored rows on every load and tuples are the cheapest to make."""

    seat: int
    text: str


@dataclass
class Record:
    """Ruleset with version, seats, seed, options and the ordered move log."""

    ruleset: str
    version: int
    seats: list[str]
    seed: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[LoggedMove] = field(default_factory=list)
    # Seats whose players left the game (resigned, or lost the seat on time),
    # in the order they left; bots played them on. They rank last.
    withdrawn: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        withdrawn = {"withdrawn": list(self.withdrawn)} if self.withdrawn else {}
        return {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "version": self.version,
            "seats": list(self.seats),
            "seed": self.seed,
            "options": dict(self.options),
            "moves": [{"seat": m.seat, "move": m.text} for m in self.moves],
            **withdrawn,  # only when someone left: older records stay byte for byte
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError.of("record.not_a_record", format=FORMAT)
        try:
            moves = [LoggedMove(int(m["seat"]), str(m["move"])) for m in data.get("moves", [])]
            record = cls(
                ruleset=str(data["ruleset"]),
                version=int(data["version"]),
                seats=[str(s) for s in data["seats"]],
                seed=str(data["seed"]),
                options=dict(data.get("options", {})),
                moves=moves,
                withdrawn=[int(seat) for seat in data.get("withdrawn", [])],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError.of("record.malformed", problem=str(exc)) from None
        return record

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError.of("record.not_json", problem=str(exc)) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError.of(
                "record.unreadable", path=str(path), problem=str(exc.strerror)
            ) from None
        return cls.loads(text)

    def save(self, path: str | Path) -> None:
        """Write through a temporary file so a crash never leaves half a record."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.dumps(), encoding="utf-8")
        tmp.replace(target)
