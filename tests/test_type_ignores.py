"""Every `type: ignore` comment names its error codes and says on its own line
why a library forces it (docs/development.md#the-tests): mypy itself refuses
one without codes (ignore-without-code) and one no longer needed
(warn_unused_ignores); this test refuses one without a reason."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "pbem", "worker", "benchmarks", "tests")  # every Python file is there
IGNORE = re.compile(r"#\s*type:\s*ignore")
# `# type: ignore[code, code]  # <library> <why>`
EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(?:, [a-z-]+)*\]  # \S.*$")
PRAGMA = "# type" + ": ignore"  # spelt apart, so this file holds none


def unexplained(source: str) -> list[int]:
    """The numbers of the lines whose ignore lacks its codes or its reason."""
    return [
        number
        for number, line in enumerate(source.splitlines(), start=1)
        if IGNORE.search(line) and not EXPLAINED.search(line)
    ]


def test_every_type_ignore_says_why() -> None:
    files = [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "node_modules" not in path.parts  # the browser tests' npm packages
    ]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number in unexplained(path.read_text(encoding="utf-8"))
    ]
    assert len(files) > 300  # the packages were found
    assert found == []


def test_an_ignore_without_codes_or_reason_is_refused() -> None:
    source = "\n".join(
        [
            f"a = 1  {PRAGMA}",
            f"b = 2  {PRAGMA}[misc]",
            f"c = 3  {PRAGMA}[misc]  #",
            f"d = 4  {PRAGMA}[attr-defined, misc]  # celery-types omits it",
            f"e = 5  {PRAGMA}[override]  # types-gunicorn: its WSGI environ differs",
            "f = 6  # no pragma here",
        ]
    )
    assert unexplained(source) == [1, 2, 3]
