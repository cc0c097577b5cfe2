"""How well the new text of a reply is cut from quotes and signatures: every
fixture under tests/mail/replies/ is read as the inbound path reads it and
compared with its `.expected` lines; prints the figures per language and per
kind of trouble (a fixture's kind is the start of its name, see KINDS).

    .venv/bin/python -m benchmarks.replies [--failures]

A fixture is `<language>/<name>.txt` (a plain-text body) or
`<language>/<name>.eml` (a whole message, often HTML only), beside
`<name>.expected`: the lines the player wrote (blank lines do not count).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path

from pbem.mail.reply_text import body_text, new_text
from pbem.services.submissions import submission_lines

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "mail" / "replies"
MUST_BE_PERFECT = ("en", "fr", "cs", "de")
# The kinds of reply that leaked or lost lines (issue 28), by fixture name.
KINDS = {
    "header_date_name_no_verb": "date and name, no verb",
    "header_gmail_numeric_offset": "Gmail numeric date, GMT offset",
    "header_without_colon": "attribution without a colon",
    "header_wrapped_three_lines": "attribution wrapped over lines",
    "header_single_from_line": "a single From: line",
    "header_in_language": "attribution in the mail's language",
    "outlook_html_fields_apart": "Outlook HTML, fields apart",
    "quote_wrapped_without_marks": "quote wrapped without '>'",
    "signature_list_footer": "mailing-list footer after __",
    "signature_contact_block": "name, title, phone, address",
    "signature_closing_then_name": "a name after a closing",
    "signature_forward_separator": "forward separator",
    "kept_sent_from_desk": "kept: 'Sent from my desk, ...'",
    "kept_wrote_in_the_middle": "kept: '... wrote:' mid-reply",
    "extra_greeting_line": "kept: a greeting line",
    "extra_name_line": "kept: a name after the moves",
}


@dataclass(frozen=True)
class Case:
    path: Path

    @property
    def language(self) -> str:
        return self.path.parent.name

    @property
    def name(self) -> str:
        return f"{self.language}/{self.path.name}"

    @property
    def kind(self) -> str | None:
        return next((kind for kind in KINDS if self.path.stem.startswith(kind)), None)

    @property
    def expected(self) -> list[str]:
        return submission_lines(self.path.with_suffix(".expected").read_text(encoding="utf-8"))

    def read(self) -> list[str]:
        """The lines pbem takes from the fixture as the player's new text."""
        if self.path.suffix == ".eml":
            parsed = BytesParser(policy=policy.default).parsebytes(self.path.read_bytes())
            body = body_text(parsed)
        else:
            body = self.path.read_text(encoding="utf-8")
        return submission_lines(new_text(body))


def cases() -> list[Case]:
    return [Case(path) for path in sorted(FIXTURES.glob("*/*")) if path.suffix in (".txt", ".eml")]


@dataclass
class Score:
    passed: dict[str, int]
    total: dict[str, int]
    failures: list[tuple[Case, list[str]]]
    kind_passed: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    kind_total: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def share(self, language: str | None = None) -> float:
        languages = [language] if language else list(self.total)
        total = sum(self.total[lang] for lang in languages)
        return sum(self.passed[lang] for lang in languages) / total if total else 1.0

    def kind_share(self, kind: str) -> float:
        return self.kind_passed[kind] / self.kind_total[kind] if self.kind_total[kind] else 1.0


def score(chosen: list[Case]) -> Score:
    result = Score(defaultdict(int), defaultdict(int), [])
    for case in chosen:
        got = case.read()
        right = got == case.expected
        result.total[case.language] += 1
        result.passed[case.language] += right
        if case.kind is not None:
            result.kind_total[case.kind] += 1
            result.kind_passed[case.kind] += right
        if not right:
            result.failures.append((case, got))
    return result


def report(result: Score, failures: bool) -> str:
    lines = [f"{'language':<9}{'cut right':>10}{'cases':>7}{'share':>8}"]
    for language in sorted(result.total, key=lambda lang: (-result.total[lang], lang)):
        lines.append(
            f"{language:<9}{result.passed[language]:>10}{result.total[language]:>7}"
            f"{result.share(language):>8.0%}"
        )
    passed, total = sum(result.passed.values()), sum(result.total.values())
    lines.append(f"{'all':<9}{passed:>10}{total:>7}{result.share():>8.0%}")
    lines.append(f"\n{'kind':<36}{'cut right':>10}{'cases':>7}{'share':>8}")
    for kind, title in KINDS.items():
        lines.append(
            f"{title:<36}{result.kind_passed[kind]:>10}{result.kind_total[kind]:>7}"
            f"{result.kind_share(kind):>8.0%}"
        )
    if failures:
        for case, got in result.failures:
            lines.append(f"\n{case.name}\n  expected: {case.expected}\n  read:     {got}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="print every case cut wrong")
    print(report(score(cases()), parser.parse_args().failures))


if __name__ == "__main__":
    main()
