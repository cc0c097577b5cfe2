"""What the docs name must exist: every `pbem ...` command and every path of
this repository named in README.md, docs/ and the OpenAPI descriptions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[2]
TOP_FOLDERS = ("engine", "pbem", "worker", "tests", "docs", "deploy", "benchmarks")
CODE_SPAN = re.compile(r"`([^`]+)`")  # a span may wrap onto the next line
COMMAND = re.compile(r"(?<![\w.+-])pbem ([a-z][\w-]*)(?: ([a-z][\w-]*))?")
PATH = re.compile(rf"(?<![\w./-])((?:{'|'.join(TOP_FOLDERS)})/[\w./-]*\w/?)")
LINK = re.compile(r"\]\(([^)#:]+)\)")
ALSO_SQLITE = re.compile(r"^pytestmark = .*\bpytest\.mark\.also_sqlite\b", re.MULTILINE)


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def code_of(markdown: str) -> Iterator[str]:
    """Code spans and indented code blocks: where commands and paths are written."""
    yield from CODE_SPAN.findall(markdown)
    yield from (line for line in markdown.splitlines() if line.startswith("    "))


def descriptions(node: object) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                yield value
            else:
                yield from descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from descriptions(item)


@pytest.fixture(scope="module")
def openapi_code(app) -> list[str]:
    document = app.test_client().get("/api/openapi.json").get_json()
    return [span for text in descriptions(document) for span in CODE_SPAN.findall(text)]


def documented_code(openapi_code: list[str]) -> list[tuple[str, str]]:
    """(where, code) for every piece of code the docs show."""
    found = [
        (path.relative_to(ROOT).as_posix(), code)
        for path in markdown_files()
        for code in code_of(path.read_text(encoding="utf-8"))
    ]
    return found + [("openapi.json", code) for code in openapi_code]


def unknown_command(first: str, second: str | None) -> str | None:
    command = main.commands.get(first)
    if command is None:
        return f"pbem {first}"
    if isinstance(command, click.Group) and second is not None and second not in command.commands:
        return f"pbem {first} {second}"
    return None


def test_every_pbem_command_the_docs_name_exists(openapi_code):
    named = {
        (where, match.group(0)): unknown_command(match.group(1), match.group(2))
        for where, code in documented_code(openapi_code)
        for match in COMMAND.finditer(code)
    }
    assert len(named) > 10  # the check finds the commands at all
    assert {key: bad for key, bad in named.items() if bad} == {}


def test_every_repository_path_the_docs_name_exists(openapi_code):
    named = {
        (where, path)
        for where, code in documented_code(openapi_code)
        for path in PATH.findall(code)
    }
    named |= {
        (path.relative_to(ROOT).as_posix(), link)
        for path in markdown_files()
        for link in LINK.findall(path.read_text(encoding="utf-8"))
        if not link.startswith("http")
    }
    assert len(named) > 10
    missing = {(where, path) for where, path in named if not _exists(where, path)}
    assert missing == set()


def _exists(where: str, path: str) -> bool:
    """A path from the repository root, or (a markdown link) from the file's folder."""
    folder = (ROOT / where).parent if where.endswith(".md") else ROOT
    return (ROOT / path).exists() or (folder / path).exists()


def test_the_tests_also_on_sqlite_are_the_ones_the_guide_lists():
    """The SQLite set is chosen on purpose: docs/development.md names every
    file marked `also_sqlite`, and no other."""
    guide = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = guide.split("### Which database", 1)[1].split("The migrations (", 1)[0]
    listed = {span for span in CODE_SPAN.findall(section) if "/test_" in span}
    marked = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if ALSO_SQLITE.search(path.read_text(encoding="utf-8"))
    }
    assert listed == marked
