"""Sentences kept as template and parameters are written in each reader's
language, nested phrases and lengths of time included; texts kept in English
before phrases were still read."""

from __future__ import annotations

import json

from pbem.i18n import in_language
from pbem.i18n.phrases import Phrase, phrase, written
from pbem.models import OnTimeout
from pbem.services.time_control import OUTCOMES


def test_a_phrase_is_kept_as_json_and_written_in_each_language(app):
    with app.app_context(), in_language("en"):
        outcome = Phrase(str(OUTCOMES[OnTimeout.BOT][0]))
    said = phrase("timeout: %(name)s ran out of time. %(outcome)s", name="Ann", outcome=outcome)
    kept = json.loads(json.dumps(said.to_json()))
    assert Phrase.from_json(kept) == said
    with app.app_context():
        assert said.english() == (
            "timeout: Ann ran out of time. A bot made this move for them; they keep their seat."
        )
        with in_language("fr"):
            french = written(kept)
    assert french.startswith("dépassement du temps : Ann n'a plus de temps. ")
    assert "bot" in french and "A bot made" not in french


def test_a_length_of_time_is_written_in_the_readers_words(app):
    said = phrase("game paused for %(length)s", durations=("length",), length=3 * 86400 + 7200)
    with app.app_context():
        assert said.english() == "game paused for 3 days 2 hours"
        with in_language("cs"):
            assert "3 dny 2 hodiny" in said.text()


def test_a_text_kept_before_phrases_reads_as_it_was(app):
    with app.app_context(), in_language("cs"):
        assert written("timeout: Ann ran out of time.") == "timeout: Ann ran out of time."
