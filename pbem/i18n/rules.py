"""Rule refusals in the reader's language.

The engine raises its refusals in English with a message id and parameters
(`engine.core.messages`); a submission row keeps both (`Submission.refusal`
beside `reason`), and every place that shows a refusal (the game page, the
API, the refusal mail) calls `describe_refusal` with the reader's language.
The English templates are the msgids of the `rules` catalogues; parameters
that are game words (a terrain, a rule's name) are translated too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import engine
from engine.core.messages import (
    LIST_SEPARATOR,
    WORD_PARAMETERS,
    Message,
    UnknownMessage,
    is_word,
    registered_words,
    templates,
)
from engine.core.trial import PartlyPlayed
from pbem.i18n import refusal_texts  # noqa: F401  (the server's own refusals)
from pbem.i18n.catalogues import TRANSLATED, plain_translations

AREA = "rules"
NUMBERED = re.compile(r"(\D+?)(\d+)")


def refusal_of(error: engine.EngineError | PartlyPlayed) -> dict[str, Any] | None:
    """What to store beside a refusal's English text: its message id,
    parameters and rule; None for an error raised without an id."""
    if isinstance(error, PartlyPlayed):
        return {**error.message.to_json(), "rule": None}
    if error.message is None:
        return None
    return {**error.message.to_json(), "rule": getattr(error, "rule", None)}


def describe_error(error: engine.EngineError, language: str | None) -> str:
    """An error raised now (a preview, the API, a game's options) in `language`."""
    return describe_refusal(refusal_of(error), str(error), language)


def describe_refusal(refusal: Mapping[str, Any] | None, english: str, language: str | None) -> str:
    """The refusal in `language` (en, fr or cs); the English text when the
    language is English, when there is no id (rows from before ids were
    kept) or when the id is no longer known."""
    if refusal is None or language not in TRANSLATED:
        return english
    try:
        message = Message.from_json(refusal)
    except (UnknownMessage, ValueError, KeyError, TypeError):
        return english
    text = translate(message, language)
    rule = refusal.get("rule")
    return f"{text} [{translate_word(rule, language)}]" if rule else text


def translate(message: Message, language: str) -> str:
    """A message in `language`, its nested messages and words too."""
    template = plain_translations(AREA, language).gettext(message.template)
    return template % {
        name: _parameter(name, value, language) for name, value in message.params.items()
    }


def translate_word(word: str, language: str) -> str:
    """A game's word in `language`, also one carrying a number, as a tile's
    name does ("helmet4" -> "přilba4"); anything else as it is."""
    numbered = NUMBERED.fullmatch(word)
    stem, number = (numbered[1], numbered[2]) if numbered else (word, "")
    if not is_word(stem):
        return word
    return plain_translations(AREA, language).gettext(stem) + number


def _parameter(name: str, value: Any, language: str) -> Any:
    if isinstance(value, Message):
        return translate(value, language)
    if isinstance(value, tuple):
        return LIST_SEPARATOR.join(translate(item, language) for item in value)
    if isinstance(value, str) and name in WORD_PARAMETERS:
        return translate_word(value, language)
    return value


def translatable() -> list[str]:
    """Every msgid of the `rules` area: the templates, then the words."""
    found = list(dict.fromkeys(templates().values()))
    return found + sorted(set(registered_words()) - set(found))


def extract_templates(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """A Babel extractor (see the area's babel.cfg): the registered messages,
    which no gettext call names in the sources."""
    ids = {template: code for code, template in templates().items()}
    for msgid in translatable():
        comment = f"id {ids[msgid]}" if msgid in ids else "a word shown inside messages"
        yield 0, None, msgid, [comment]
