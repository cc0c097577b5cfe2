"""Named game options: their defaults, allowed values, and checking."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import message_texts  # noqa: F401  (the templates used here)
from engine.core.errors import EngineError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    """One option of a ruleset; values typed on a command line are coerced."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None

    def coerce(self, raw: Any) -> Any:
        kind = type(self.default)
        value = raw
        if isinstance(raw, str) and kind is not str:
            text = raw.strip().lower()
            if kind is bool:
                if text not in _TRUE | _FALSE:
                    raise EngineError.of("options.yes_or_no", option=self.name, value=str(raw))
                value = text in _TRUE
            elif kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise EngineError.of(
                        "options.whole_number", option=self.name, value=str(raw)
                    ) from None
        if type(value) is not kind:
            raise EngineError.of(
                "options.wrong_type", option=self.name, kind=kind.__name__, value=str(raw)
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise EngineError.of(
                "options.not_a_choice", option=self.name, choices=allowed, value=str(raw)
            )
        return value


def resolve_options(spec: tuple[Option, ...], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, unknown names refused, values checked."""
    raw = dict(raw or {})
    known = {o.name: o for o in spec}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        names = ", ".join(known) or "none"
        raise EngineError.of("options.unknown", option=unknown[0], options=names)
    return {o.name: o.coerce(raw[o.name]) if o.name in raw else o.default for o in spec}
