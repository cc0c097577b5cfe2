"""Which rulesets exist, by name and version, so old records replay under old rules."""

from __future__ import annotations

from typing import Any

from engine.core import message_texts  # noqa: F401  (the templates used here)
from engine.core.errors import RecordError
from engine.core.state import State

_RULESETS: dict[tuple[str, int], type[State[Any]]] = {}


def register(cls: type[State[Any]]) -> type[State[Any]]:
    """Class decorator: make a ruleset version available by name."""
    key = (cls.name, cls.version)
    if key in _RULESETS:
        raise ValueError(f"ruleset {cls.name} v{cls.version} registered twice")
    _RULESETS[key] = cls
    return cls


def rulesets() -> list[type[State[Any]]]:
    return [_RULESETS[k] for k in sorted(_RULESETS)]


def get_ruleset(name: str, version: int | None = None) -> type[State[Any]]:
    """The named ruleset at `version`, or its newest version when None."""
    versions = sorted(v for n, v in _RULESETS if n == name)
    if not versions:
        known = ", ".join(sorted({n for n, _ in _RULESETS}))
        raise RecordError.of("record.unknown_game", game=name, games=known)
    chosen = versions[-1] if version is None else version
    if chosen not in versions:
        raise RecordError.of(
            "record.unknown_version",
            game=name,
            version=chosen,
            versions=", ".join(map(str, versions)),
        )
    return _RULESETS[(name, chosen)]
