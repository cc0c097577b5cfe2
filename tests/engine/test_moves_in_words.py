"""Mails list moves in their reader's words: every legal move, said in
French or Czech, reads back as the same move, and its words are that
language's ("dílek", not "tile")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine  # noqa: F401  (registers the rulesets)
from engine.core.registry import get_ruleset
from engine.core.state import State

PLIES = 30
EVERY = 7  # of a position's legal moves, every 7th is tried (Java has thousands)


def sampled_moves(game: str) -> Iterator[tuple[State, int, Any]]:
    """Every EVERY-th legal move of each position of a random game's first PLIES."""
    state = get_ruleset(game).new(3, "words-seed")
    chance = random.Random(7)
    for _ in range(PLIES):
        if state.is_over():
            break
        seat = min(state.to_act())
        legal = state.legal_moves(seat)
        for move in legal[::EVERY]:
            yield state, seat, move
        state.push(seat, chance.choice(legal))


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize("game", ["java", "taluva", "samurai"])
def test_every_legal_move_said_in_a_language_reads_back_as_itself(game, language):
    changed = 0
    for state, seat, move in sampled_moves(game):
        text = state.format_move(move)
        said = state.said_move(text, language)
        changed += said != text
        assert state.parse_syntax(seat, said) == state.parse_syntax(seat, text), (text, said)
    assert changed > 0  # words of the language, not English


@pytest.mark.parametrize(
    ("game", "canonical", "language", "said"),
    [
        ("taluva", "tile 0,0 0,-1 1,-1", "cs", "dílek 0,0 0,-1 1,-1"),
        ("taluva", "extend 1,-1 jungle", "fr", "étendre 1,-1 forêt"),
        ("samurai", "choose helmet4 buddha3", "cs", "vybrat přilba4 buddha3"),
        ("java", "festival mask+drum", "fr", "fête masque+tambour"),
        ("java", "triple F4 F5 G5 village=F5", "cs", "trojdílné F4 F5 G5 vesnice=F5"),
        ("taluva", "tile 0,0 0,-1 1,-1", "en", "tile 0,0 0,-1 1,-1"),
    ],
)
def test_a_move_in_a_readers_words(game, canonical, language, said):
    state = get_ruleset(game).new(3, "words-seed")
    assert state.said_move(canonical, language) == said


@pytest.mark.parametrize("game", ["java", "taluva", "samurai"])
def test_every_move_begins_with_a_word_that_opens_one_and_prose_does_not(game):
    """What a mail reader tells a mistyped move from a closing or a greeting by."""
    for state, _seat, move in sampled_moves(game):
        for language in ("en", "fr", "cs"):
            said = state.said_move(state.format_move(move), language)
            assert state.opens_move(said.split()[0]), said
    state = get_ruleset(game).new(3, "words-seed")
    prose = ("Bisous", "Allez", "Na", "Good", "Hodně", "Lucie", "GL", "A+", "Sorry", "See")
    assert not any(state.opens_move(word) for word in prose)
