"""Rule refusals in the reader's language: the `rules` catalogues translate
every registered message, a refused submission keeps its message id and
parameters, and the API hands them out beside the English text."""

from __future__ import annotations

import pytest

import engine
from engine.core.messages import (
    WORD_PARAMETERS,
    Message,
    placeholders,
    registered_words,
    templates,
)
from pbem.i18n.catalogues import SOURCE, read_catalogue
from pbem.i18n.rules import describe_refusal, refusal_of, translatable, translate
from pbem.models import SubmissionStatus
from pbem.services import accounts
from tests.server.pipeline_helpers import (
    FESTIVAL_AFTER_A_DRAW,
    java_ann_first,
    judged,
    send,
    start_game,
)

LANGUAGES = ("fr", "cs")


def sample(code: str) -> Message:
    """The message with every parameter filled: a word where a word goes."""
    word = sorted(registered_words())[0]
    params = {
        name: word if name in WORD_PARAMETERS else f"<{name}>"
        for name in placeholders(templates()[code])
    }
    return Message(code, params)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_message_and_word_has_a_translation(language):
    path = SOURCE / "rules" / language / "LC_MESSAGES" / "messages.po"
    catalogue = read_catalogue(path, language)
    for msgid in translatable():
        found = catalogue.get(msgid)
        assert found is not None and found.string and not found.fuzzy, msgid
        assert placeholders(found.string) == placeholders(msgid), msgid
    assert not list(catalogue.check())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_registered_message_is_shown_translated(language):
    """Each message built and translated: every placeholder filled, and the
    text is the language's own (a few are the same words in both)."""
    same = []
    for code in templates():
        message = sample(code)
        text = translate(message, language)
        assert "%(" not in text, code
        assert all(f"<{name}>" in text for name in message.params if name not in WORD_PARAMETERS)
        if text == message.text():
            same.append(code)
    alike = {"turn.with_rule", "turn.plain", "samurai.colour_count", "java.cost_irrigation"}
    assert set(same) <= alike, same  # "irrigation" is French too


def test_word_parameters_and_rules_are_translated_and_other_parameters_not():
    error = engine.IllegalMove.of(
        "taluva.nothing_to_extend", rule="extension", terrain="jungle", space="2,-1"
    )
    refusal = refusal_of(error)
    assert refusal == {
        "code": "taluva.nothing_to_extend",
        "params": {"terrain": "jungle", "space": "2,-1"},
        "rule": "extension",
    }
    assert describe_refusal(refusal, str(error), "fr") == (
        "aucun terrain libre de type forêt ne touche votre village en 2,-1 [extension]"
    )
    assert describe_refusal(refusal, str(error), "cs") == (
        "vedle vaší osady na 2,-1 není volný terén typu džungle [rozšíření]"
    )
    typed = engine.IllegalMove.of("taluva.not_a_space", word="village")
    assert "'village'" in describe_refusal(refusal_of(typed), str(typed), "cs")


def test_english_or_an_unknown_id_shows_the_stored_text():
    error = engine.IllegalMove.of("taluva.no_land", rule="building", space="1,1")
    english = str(error)
    assert describe_refusal(refusal_of(error), english, "en") == english
    assert describe_refusal(refusal_of(error), english, None) == english
    assert describe_refusal(None, "an old row's reason", "fr") == "an old row's reason"
    gone = {"code": "taluva.since_removed", "params": {}, "rule": None}
    assert describe_refusal(gone, "kept", "cs") == "kept"
    changed = {"code": "taluva.no_land", "params": {"spot": "1,1"}, "rule": None}
    assert describe_refusal(changed, "kept", "cs") == "kept"


def test_a_refused_submission_keeps_its_message_for_every_language(app, session, make_user):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    rejected = judged(app, send(app, session, game, 1, "festival B3 P\ndraw deck").id)
    assert rejected.status == SubmissionStatus.REJECTED
    assert rejected.refusal == {
        "code": "java.no_palace",
        "params": {"space": "B3"},
        "rule": "festival",
    }
    assert describe_refusal(rejected.refusal, rejected.reason, "fr") == (
        "il n'y a pas de palais en B3 [fête]"
    )
    assert describe_refusal(rejected.refusal, rejected.reason, "cs") == (
        "na B3 není palác [slavnost]"
    )


def test_a_partly_played_submission_keeps_the_nested_refusal(app, session, make_user):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    partly = judged(app, send(app, session, game, 1, "\n".join(FESTIVAL_AFTER_A_DRAW)).id)
    assert partly.status == SubmissionStatus.PARTIAL
    assert partly.refusal is not None and partly.refusal["code"] == "turn.partly_played"
    assert partly.refusal["params"]["error"] == {
        "code": "turn.with_rule",
        "params": {
            "reason": {"code": "java.card_not_held", "params": {"card": "P"}},
            "rule": "festival cards",
        },
    }
    czech = describe_refusal(partly.refusal, partly.reason, "cs")
    assert czech.startswith("zahráno: ")
    assert czech.endswith("protože 'festival B3 P': nemáte kartu P [slavnostní karty]")


def test_the_api_gives_the_refusals_id_and_parameters(app, session, make_user):
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    game = start_game(app, session, "taluva", [ann, "bot"])
    url = f"/api/v1/games/{game.public_id}/seats/0"
    headers = {"Authorization": f"Bearer {token}"}
    client = app.test_client()
    refused = client.post(f"{url}/moves", json={"moves": ["hut 9,9"]}, headers=headers)
    assert refused.status_code == 422
    body = refused.get_json()
    assert body["message"] == "first lay your tile, then build [turn: tile, then build]"
    assert body["errors"] == {
        "code": "taluva.tile_first",
        "params": {},
        "rule": "turn: tile, then build",
    }

    stored = send(app, session, game, 0, "tile 0,0 0,-1 1,-1\nhut 5,5")
    judged(app, stored.id)
    answer = client.get(f"{url}/submissions/{stored.id}", headers=headers).get_json()
    assert answer["status"] == "rejected"
    assert answer["reason"] == "there is no land on 5,5 [building]"
    assert answer["refusal"] == {
        "code": "taluva.no_land",
        "params": {"space": "5,5"},
        "rule": "building",
    }
