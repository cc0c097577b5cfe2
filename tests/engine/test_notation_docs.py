"""The notation docs in French and Czech list every word the game reads in
that language, so a player can find each one."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games.java import notation as java_notation
from engine.games.samurai import notation as samurai_notation
from engine.games.taluva import notation as taluva_notation
from engine.games.taluva import tiles as taluva_tiles

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notation"
VOCABULARIES = {
    "java": [java_notation.VERBS, java_notation.OTHER_WORDS],
    "samurai": [samurai_notation.TYPE_WORDS, samurai_notation.COMMANDS],
    "taluva": [taluva_notation.VERBS, taluva_tiles.TERRAIN_VOCABULARY],
}


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize("game", sorted(VOCABULARIES))
def test_every_word_read_is_in_the_doc_of_its_language(game, language):
    doc = (DOCS / f"{game}.{language}.md").read_text(encoding="utf-8")
    for vocabulary in VOCABULARIES[game]:
        for english in vocabulary.translations:
            for word in vocabulary.words(english, language):
                assert f"`{word}`" in doc, (english, word)
            assert f"`{english}`" in doc, english
