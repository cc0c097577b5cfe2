"""The games' options in the reader's language.

An option's help text is the engine's English (`engine.core.options.Option`);
it is the msgid of its translation in the `pages` catalogues, which this
module's extractor fills from the rulesets, so no second list is kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from flask_babel import gettext

import engine
from engine.core.options import Option


def option_help(option: Option) -> str:
    """What the option does, in the current language."""
    return gettext(option.help)


def chosen_options(ruleset: str, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A game's options as a reader would say them, in the current language:
    (help, value) for a value, (help, None) for a variant switched on;
    nothing for one switched off."""
    said: list[tuple[str, Any]] = []
    for option in engine.get_ruleset(ruleset).option_spec:
        value = options.get(option.name, option.default)
        if value is True:
            said.append((option_help(option), None))
        elif value is not False and value is not None:
            said.append((option_help(option), value))
    return said


def extract_help(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """A Babel extractor (see the pages area's babel.cfg): the help text of
    every option of the games the engine ships, which no gettext call names."""
    seen: set[str] = set()
    shipped = (rules for rules in engine.rulesets() if rules.__module__.startswith("engine."))
    for rules in shipped:
        for option in rules.option_spec:
            if option.help not in seen:
                seen.add(option.help)
                yield 0, None, option.help, [f"option {option.name} of {rules.name}"]
