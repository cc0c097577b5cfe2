"""Sentences kept now and written later, in each reader's language.

What happened to a game (an organiser's action, a timeout) shows in its
history and in mails for as long as the game is kept, to readers of every
language; so it is kept as its English gettext template and parameters
(names, numbers, lengths of time, other phrases) and written when it is read. `phrase(...)`
is a gettext keyword: the templates are extracted like any other string.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import has_app_context
from flask_babel import force_locale, gettext

from pbem.i18n.times import duration

Param = str | int | float  # or a Phrase


@dataclass(frozen=True)
class Phrase:
    template: str
    params: Mapping[str, Param | Phrase] = field(default_factory=dict)
    # Parameters holding a length of time in seconds, written as a duration.
    durations: frozenset[str] = frozenset()

    def text(self) -> str:
        """The sentence in the current language (English without an app)."""
        return gettext(self.template, **{name: self._written(name) for name in self.params})

    def _written(self, name: str) -> Param:
        value = self.params[name]
        if isinstance(value, Phrase):
            return value.text()
        return duration(float(value)) if name in self.durations else value

    def english(self) -> str:
        if not has_app_context():
            return self.text()
        with force_locale("en"):
            return self.text()

    def to_json(self) -> dict[str, Any]:
        return {
            "template": self.template,
            "params": {
                name: value.to_json() if isinstance(value, Phrase) else value
                for name, value in self.params.items()
            },
            "durations": sorted(self.durations),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Phrase:
        params = {
            name: cls.from_json(value) if isinstance(value, Mapping) else value
            for name, value in data.get("params", {}).items()
        }
        return cls(data["template"], params, frozenset(data.get("durations", ())))


def phrase(template: str, durations: tuple[str, ...] = (), **params: Param | Phrase) -> Phrase:
    """A sentence to write later: `template` with `%(name)s` placeholders."""
    return Phrase(template, params, frozenset(durations))


def written(said: str | Mapping[str, Any]) -> str:
    """A stored sentence in the current language: a phrase's JSON, or a
    text kept in English before phrases were (read through the catalogue,
    which knows it if it was a literal)."""
    if isinstance(said, Mapping):
        return Phrase.from_json(said).text()
    return gettext(said)
