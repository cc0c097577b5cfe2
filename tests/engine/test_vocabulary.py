"""Moves typed with French or Czech words (any case, accents or not) read as
the same move as the English text; the canonical text stays English."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.bots.random_play import RandomBot
from engine.core.errors import IllegalMove
from engine.core.vocabulary import Vocabulary, fold
from engine.games.java import notation as java
from engine.games.samurai import notation as samurai
from engine.games.taluva import notation as taluva
from engine.games.taluva.tiles import TERRAIN_VOCABULARY

VOCABULARIES = {
    "taluva": (taluva.VERBS, TERRAIN_VOCABULARY),
    "java": (java.VERBS, java.OTHER_WORDS, java.CARD_WORDS),
    "samurai": (samurai.COMMANDS, samurai.TYPE_WORDS),
}
# A token: letters (and hyphens), then what follows them (a strength, =SPACE).
PIECE = re.compile(r"^([^\W\d]+(?:-[^\W\d]+)*)(.*)$")


def spelled(word: str, rng: random.Random) -> str:
    """As a player might type it: accents or not, any case."""
    word = rng.choice([word, fold(word)])
    return rng.choice([word, word.upper(), word.capitalize()])


def localised(text: str, vocabularies: tuple[Vocabulary, ...], language: str, seed: int) -> str:
    """The English move text with each game word in `language`."""
    rng = random.Random(seed)
    typed = []
    for token in text.split():
        piece = PIECE.match(token)
        if piece:
            word, rest = piece.groups()
            choices = [w for v in vocabularies for w in v.words(word, language)]
            if choices:
                token = spelled(rng.choice(choices), rng) + rest
        typed.append(token)
    return " ".join(typed)


def sampled_moves(name: str, players: int, seed: str, plies: int = 60):
    """(state, seat, move) along a random game, a few legal moves per position."""
    game = Game.new(name, [f"p{i}" for i in range(players)], seed)
    bot, rng = RandomBot(seed), random.Random(seed)
    for _ in range(plies):
        if game.state.is_over():
            return
        seat = min(game.state.to_act())
        legal = game.state.legal_moves(seat)
        for move in rng.sample(legal, min(4, len(legal))):
            yield game.state, seat, move
        game.push(seat, bot.choose(game.state, seat))


@pytest.mark.parametrize("name", ["taluva", "java", "samurai"])
@pytest.mark.parametrize("language", ["fr", "cs"])
def test_moves_in_french_and_czech_read_as_the_english_ones(name, language):
    vocabularies = VOCABULARIES[name]
    changed = 0
    for index, (state, seat, move) in enumerate(sampled_moves(name, 2, f"words-{name}")):
        english = state.format_move(move)
        typed = localised(english, vocabularies, language, index)
        changed += typed != english
        parsed = state.parse_syntax(seat, typed)
        assert parsed == state.parse_syntax(seat, english), (english, typed)
        assert state.format_move(parsed) == english
    assert changed > 20  # the sample did use the other language's words


@settings(max_examples=60, deadline=None)
@given(
    language=st.sampled_from(["fr", "cs"]),
    verb=st.sampled_from(["tile", "hut", "temple", "tower", "extend"]),
    terrain=st.sampled_from(["jungle", "clearing", "sand", "rock", "lake"]),
    seed=st.integers(0, 10_000),
)
def test_taluva_words_round_trip_in_every_spelling(language, verb, terrain, seed):
    english = {
        "tile": "tile 0,0 0,-1 1,-1",
        "extend": f"extend 2,-1 {terrain}",
    }.get(verb, f"{verb} 2,-1")
    typed = localised(english, VOCABULARIES["taluva"], language, seed)
    assert typed != english or (verb == "temple" and language == "fr")
    assert taluva.format_move(taluva.parse_move(typed)) == english


def test_the_rulebooks_words_are_read():
    assert taluva.parse_move("étendre 2,-1 Forêt") == taluva.parse_move("extend 2,-1 jungle")
    assert taluva.parse_move("ROZSIRIT 2,-1 skala") == taluva.parse_move("extend 2,-1 rock")
    assert java.parse("bâtir G5 4") == java.parse("build G5 4")
    assert java.parse("trojdílné F4 F5 G4 vesnice=F5") == java.parse("triple F4 F5 G4 village=F5")
    assert java.parse("piocher visible") == java.parse("draw faceup")
    assert java.parse("jouer masque+tambour loutka") == java.parse("play MD P")


def test_a_word_of_no_language_is_still_refused():
    with pytest.raises(IllegalMove, match="'bosque' is not a terrain"):
        taluva.parse_move("extend 2,-1 bosque")
    with pytest.raises(IllegalMove, match="unknown move 'construire'"):
        java.parse("construire G5 4")


def test_a_word_may_not_mean_two_things():
    with pytest.raises(ValueError, match="would mean both"):
        Vocabulary({"hut": {"fr": ("tour",)}, "tower": {"fr": ("tour",)}})


@pytest.mark.parametrize("name", ["taluva", "java", "samurai"])
def test_the_notation_doc_lists_every_word(name):
    doc = (Path(__file__).parents[2] / "docs" / "notation" / f"{name}.md").read_text()
    table = doc.split("## Words in French and Czech", 1)[1].split("\n## ", 1)[0]
    for vocabulary in VOCABULARIES[name]:
        for english in vocabulary.translations:
            for language in ("en", "fr", "cs"):
                for word in vocabulary.words(english, language):
                    assert f"`{word}`" in table, (name, language, word)
