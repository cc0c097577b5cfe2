"""Every refusal the engine and the server raise has a registered message:
an id, an English template and parameters that fill it exactly."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine
import pbem.i18n.refusal_texts  # noqa: F401  (the server's own refusals)
from engine.core.errors import IllegalMove
from engine.core.messages import (
    WORD_PARAMETERS,
    Message,
    UnknownMessage,
    placeholders,
    registered_words,
    templates,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "pbem").rglob("*.py")])
MESSAGE_ID = re.compile(r"^(turn|record|options|board|taluva|java|samurai|pbem)\.[a-z_]+$")
ERRORS = {"IllegalMove", "RecordError"}


def calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def name_of(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_raise_site_uses_a_registered_message(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    known = templates()
    for call in calls(tree):
        func = call.func
        built_directly = name_of(func) in ERRORS and path.name != "errors.py"
        assert not built_directly, f"{path.name}:{call.lineno}: use {name_of(func)}.of(id, ...)"
        if not (name_of(func) == "of" and isinstance(func, ast.Attribute)):
            continue
        if name_of(func.value) not in {*ERRORS, "EngineError"}:
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant):
            assert first.value in known, f"{path.name}:{call.lineno}: {first.value} unknown"
            given = {k.arg for k in call.keywords if k.arg != "rule"}
            assert given == placeholders(known[first.value]), f"{path.name}:{call.lineno}"
    if path.is_relative_to(ROOT / "pbem"):
        return  # "pbem.*" names tasks and loggers too; its ids are checked above
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = MESSAGE_ID.match(node.value)
            assert not found or node.value in known, f"{path.name}:{node.lineno}: {node.value}"


def test_every_template_fills_with_its_placeholders_and_nothing_else():
    assert len(templates()) > 150
    for code, template in templates().items():
        params = {name: f"<{name}>" for name in placeholders(template)}
        text = Message(code, params).text()
        assert "%" not in text, code  # no stray or misspelt placeholder
        assert all(f"<{name}>" in text for name in params), code


def test_a_message_with_wrong_parameters_or_id_is_refused():
    with pytest.raises(UnknownMessage):
        Message("taluva.no_such_message")
    with pytest.raises(ValueError, match="takes"):
        Message("taluva.no_land", {"spot": "1,1"})
    with pytest.raises(ValueError, match="not a registered word"):
        IllegalMove.of("taluva.no_land", rule="a rule nobody wrote down", space="1,1")


def test_a_refusal_keeps_its_id_parameters_and_english_text():
    game = engine.Game.new("taluva", ["Ann", "Bob"], seed="s")
    game.play(0, "tile 0,0 0,-1 1,-1")
    with pytest.raises(IllegalMove) as refused:
        game.play(0, "hut 9,9")
    error = refused.value
    assert str(error) == "there is no land on 9,9 [building]"
    assert error.message is not None
    assert error.message.to_json() == {"code": "taluva.no_land", "params": {"space": "9,9"}}
    assert error.rule in registered_words()
    assert Message.from_json(error.message.to_json()) == error.message


def test_nested_messages_round_trip_through_plain_data():
    game = engine.Game.new("taluva", ["Ann", "Bob"], seed="s")
    with pytest.raises(IllegalMove) as refused:
        game.play(1, "tile 0,0 0,-1 1,-1")
    assert str(refused.value) == "it is not your turn (waiting for Ann) [turn order]"
    quoted = refused.value.quoted()
    assert quoted.text() == str(refused.value)
    assert Message.from_json(quoted.to_json()) == quoted


def test_word_parameters_are_registered_words():
    """A terrain, a figure, a tile kind shown in a message is translated with it."""
    for word in ("jungle", "lake", "hut", "tower", "triple", "rice", "helmet", "ship"):
        assert word in registered_words()
    assert {"terrain", "figure", "kind", "rule"} <= WORD_PARAMETERS
