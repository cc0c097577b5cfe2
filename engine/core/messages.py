"""Player-facing messages: a stable id, an English template and parameters.

The engine speaks English only and has no dependencies; a server that shows
messages in other languages translates them by id. Templates use gettext's
python-format (`%(space)s`), so a catalogue can take them as they are. Every
module that raises registers its templates here at import; `templates()`
lists them all (a translation tool, the completeness test).

Some parameters are words of the game (a terrain, a figure, a rule's name):
those are registered with `words()` so a translator knows to translate them
too; everything else (a space, a number) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

_TEMPLATES: dict[str, str] = {}
_WORDS: set[str] = set()
# Parameters by these names hold a registered word (a terrain, a figure...),
# translated with the message; others (a space, what the player typed) never.
WORD_PARAMETERS = frozenset({"building", "terrain", "kind", "figure", "tile", "rule"})
PLACEHOLDER = re.compile(r"%\((\w+)\)s")

Param = str | int
# A parameter may also be a message, or several shown as a list.


class UnknownMessage(KeyError):
    """A message id that no module registered: a programming error."""


def define(templates: Mapping[str, str]) -> None:
    """Register message templates by id; an id may not change its template."""
    for code, template in templates.items():
        known = _TEMPLATES.get(code)
        if known is not None and known != template:
            raise ValueError(f"message {code!r} is defined twice, differently")
        _TEMPLATES[code] = template


def words(*names: str) -> tuple[str, ...]:
    """Register game words that are shown as parameters (and translated)."""
    _WORDS.update(names)
    return names


def templates() -> dict[str, str]:
    """Every registered template by id (import `engine` first for all games)."""
    return dict(_TEMPLATES)


def registered_words() -> frozenset[str]:
    return frozenset(_WORDS)


def is_word(name: str) -> bool:
    return name in _WORDS


@cache
def placeholders(template: str) -> frozenset[str]:
    return frozenset(PLACEHOLDER.findall(template))


@dataclass(frozen=True)
class Message:
    """One message: its id and its parameters; a parameter may be a message
    itself (a refusal quoted inside another)."""

    code: str
    params: Mapping[str, Param | Message | tuple[Message, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        template = _TEMPLATES.get(self.code)
        if template is None:
            raise UnknownMessage(f"no message {self.code!r} is registered")
        wanted, given = placeholders(template), frozenset(self.params)
        if wanted != given:
            raise ValueError(f"message {self.code!r} takes {sorted(wanted)}, not {sorted(given)}")

    @property
    def template(self) -> str:
        return _TEMPLATES[self.code]

    def text(self) -> str:
        """The English text."""
        return self.template % {name: _text(value) for name, value in self.params.items()}

    def to_json(self) -> dict[str, Any]:
        """Plain data to store; nested messages become {"code", "params"}."""
        return {
            "code": self.code,
            "params": {name: _json(value) for name, value in self.params.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        return cls(data["code"], {name: _value(v) for name, v in data.get("params", {}).items()})


LIST_SEPARATOR = ", "


def _text(value: Any) -> Any:
    if isinstance(value, Message):
        return value.text()
    if isinstance(value, tuple):
        return LIST_SEPARATOR.join(item.text() for item in value)
    return value


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple):
        return [item.to_json() for item in value]
    return value


def _value(data: Any) -> Any:
    if isinstance(data, Mapping):
        return Message.from_json(data)
    if isinstance(data, list):
        return tuple(Message.from_json(item) for item in data)
    return data
