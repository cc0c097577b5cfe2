"""Moves in the reader's words, as a player of their language types them.
A move the rules keep secret is shown as a word of its game ("choose 5
tiles (secret)"), translated whole from the `rules` catalogues; any other,
word by word from the game's vocabularies. Needs no app."""

from __future__ import annotations

from typing import Any

from engine.core.messages import is_word
from engine.core.state import State
from pbem.i18n.rules import translate_word


def said_move(state: State[Any], text: str, language: str) -> str:
    """`text` (a legal move, or a move as the history shows it) in `language`."""
    if is_word(text):
        return translate_word(text, language)
    return state.said_move(text, language)
