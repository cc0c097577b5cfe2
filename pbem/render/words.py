"""The words a picture draws, in one language, without Flask: pictures are
drawn by the worker, by pages and by `python -m pbem.render`, not all inside
an app. The texts are in the `mail` catalogues (Babel finds
`words.gettext(...)` like any gettext call); the game's own words (terrains,
figures) come from the `rules` catalogues, as the refusals say them."""

from __future__ import annotations

from typing import Any

from pbem.i18n.catalogues import plain_translations
from pbem.i18n.games import said_move
from pbem.i18n.rules import translate_word

AREA = "mail"


class Words:
    def __init__(self, language: str = "en") -> None:
        self.language = language
        self._catalogue = plain_translations(AREA, language)

    def gettext(self, text: str, **params: Any) -> str:
        """`text` translated, its `%(name)s` placeholders filled from `params`."""
        translated = self._catalogue.gettext(text)
        return translated % params if params else translated

    def ngettext(self, singular: str, plural: str, num: int, **params: Any) -> str:
        """The form for `num` (Czech has three), with `%(num)s` filled in."""
        return self._catalogue.ngettext(singular, plural, num) % {"num": num, **params}

    def word(self, word: str) -> str:
        """A game's word (a terrain, a figure) as its rulebook names it."""
        return translate_word(word, self.language)

    def move(self, ruleset: str, text: str) -> str:
        """A move of the ruleset in this language's words, as mails write it."""
        return said_move(ruleset, text, self.language)
