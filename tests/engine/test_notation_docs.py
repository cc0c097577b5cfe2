"""The notation docs in French and Czech list every word the game reads in
that language, so a player can find each one, and their examples read as
the recorded (English) moves printed beside them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.registry import get_ruleset
from engine.games.java import notation as java_notation
from engine.games.samurai import notation as samurai_notation
from engine.games.samurai.board import board_for

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notation"
VOCABULARIES = {game: get_ruleset(game).vocabularies for game in ("java", "samurai", "taluva")}


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize("game", sorted(VOCABULARIES))
def test_every_word_read_is_in_the_doc_of_its_language(game, language):
    doc = (DOCS / f"{game}.{language}.md").read_text(encoding="utf-8")
    for vocabulary in VOCABULARIES[game]:
        for english in vocabulary.translations:
            for word in vocabulary.words(english, language):
                assert f"`{word}`" in doc, (english, word)
            assert f"`{english}`" in doc, english


SAMURAI_BOARD = board_for(4)
RECORDED_FORMS: dict[str, Callable[[str], str]] = {
    "java": lambda text: java_notation.format_move(java_notation.parse(text)),
    "samurai": lambda text: samurai_notation.format_move(
        SAMURAI_BOARD, samurai_notation.parse(SAMURAI_BOARD, text)
    ),
}
# The headers of a table's example and recorded-form columns, and the word
# that opens the recorded form of an example block.
LABELS = {
    "fr": ("exemple", "enregistré", "Enregistré :"),
    "cs": ("příklad", "uloží se", "Uloží se:"),
}


def _quoted(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def examples_with_recorded_forms(doc: str, language: str) -> list[tuple[str, str]]:
    """(example, recorded form) from the tables that have both columns, and
    from each example block followed by its recorded form."""
    example_header, recorded_header, recorded_opening = LABELS[language]
    pairs: list[tuple[str, str]] = []
    columns: tuple[int, int] | None = None
    block: list[str] = []
    lines = doc.splitlines()
    for number, line in enumerate(lines):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|"):
            columns = None
        elif columns is None:
            headers = cells if recorded_header in cells else []
            columns = (
                (headers.index(example_header), headers.index(recorded_header)) if headers else ()
            )
        elif columns and not set(cells[0]) <= {"-"}:
            example, recorded = (_quoted(cells[c]) for c in columns)
            pairs += zip(example, recorded, strict=True)
        if line.startswith("    ") and line.strip():
            block.append(line.strip())
        elif line.strip().startswith(recorded_opening):
            sentence = " ".join(lines[number : lines.index("", number)]).split(". ")[0]
            pairs += zip(block, _quoted(sentence), strict=True)
        elif line.strip():
            block = []
    return pairs


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize("game", sorted(RECORDED_FORMS))
def test_examples_read_as_their_recorded_forms(game, language):
    doc = (DOCS / f"{game}.{language}.md").read_text(encoding="utf-8")
    pairs = examples_with_recorded_forms(doc, language)
    assert len(pairs) >= 8
    for example, recorded in pairs:
        assert RECORDED_FORMS[game](example) == recorded, example
