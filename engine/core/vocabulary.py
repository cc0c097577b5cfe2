"""The words players type, read in English, French and Czech.

A move's text names tile kinds, terrains, actions; players write them in
their own language, with or without accents and in any case. Each word maps
to its English form, which the canonical record keeps, so records stay
portable whatever language their moves were typed in.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

LANGUAGES = ("en", "fr", "cs")
# A word of a move's text: letters (and hyphens), then a number some carry ("helmet4").
_WORD = re.compile(r"^([^\W\d](?:[^\W\d]|-)*)(\d*)$")


def fold(word: str) -> str:
    """Lower case without accents: "Forêt" and "foret", "Věž" and "vez" are one word."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class Vocabulary:
    """English words with their French and Czech equivalents
    (`{"jungle": {"fr": ("forêt",), "cs": ("džungle",)}}`); `extra` adds
    other spellings (abbreviations, synonyms) that are read but not listed."""

    translations: Mapping[str, Mapping[str, tuple[str, ...]]]
    extra: Mapping[str, str] = field(default_factory=dict)
    _index: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, str] = {}
        for english, spelling in self._spellings():
            known = index.setdefault(fold(spelling), english)
            if known != english:
                raise ValueError(f"{spelling!r} would mean both {known!r} and {english!r}")
        object.__setattr__(self, "_index", index)

    def _spellings(self) -> Iterable[tuple[str, str]]:
        for english, by_language in self.translations.items():
            yield english, english
            for words in by_language.values():
                for word in words:
                    yield english, word
        for word, english in self.extra.items():
            yield english, word

    def english(self, word: str) -> str | None:
        """The English word `word` means, or None when it is none of ours."""
        return self._index.get(fold(word))

    def knows(self, word: str) -> bool:
        """Whether `word` is one of ours, perhaps carrying a number ("helmet4")."""
        parts = _WORD.match(fold(word))
        return parts is not None and parts.group(1) in self._index

    def words(self, english: str, language: str) -> tuple[str, ...]:
        """The words listed for `english` in `language` (for the docs)."""
        if language == "en":
            return (english,)
        return tuple(self.translations.get(english, {}).get(language, ()))


def said_in(text: str, vocabularies: Sequence[Vocabulary], language: str) -> str:
    """A move's canonical text in the words of `language`, the first listed
    for each English word ("tile 0,0 0,-1 1,-1" -> "dílek 0,0 0,-1 1,-1"),
    numbers kept ("helmet4" -> "přilba4"), "+"-joined words each
    ("mask+drum" -> "maska+buben") and a word before "=" too ("village=F5" ->
    "vesnice=F5"): what a player of that language would type
    for the same move. Whatever no vocabulary knows stays as it is."""
    if language == "en":
        return text

    def said(part: str) -> str:
        word = _WORD.match(part)
        if word is None:  # a space, a number
            return part
        stem, number = word.groups()
        for vocabulary in vocabularies:
            words = vocabulary.words(stem, language)
            if stem in vocabulary.translations and words:
                return words[0] + number
        return part

    def said_token(token: str) -> str:  # "mask+drum", "village=F5": each word of it
        return "=".join("+".join(map(said, part.split("+"))) for part in token.split("="))

    return " ".join(map(said_token, text.split(" ")))


def english_in(word: str, vocabularies: Sequence[Vocabulary]) -> str | None:
    """The canonical (English) form of one word of a move written in any
    language a vocabulary reads ("Tuile" -> "tile", "parure4" -> "helmet4"),
    None when no vocabulary knows it."""
    parts = _WORD.match(fold(word))
    if parts is None:
        return None
    stem, number = parts.groups()
    for vocabulary in vocabularies:
        english = vocabulary.english(stem)
        if english is not None:
            return english + number
    return None
