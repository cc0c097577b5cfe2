"""Every reply fixture under tests/mail/replies/ (written for this project:
top- and bottom-posted, HTML only, signatures, quote headers of many mail
clients and languages) is cut to exactly the lines the player wrote: all of
them in English, French, Czech and German, 95% of them overall, and every
kind of reply that once leaked or lost lines, in eight languages."""

from __future__ import annotations

from benchmarks.replies import KINDS, MUST_BE_PERFECT, cases, report, score

KIND_LANGUAGES = ("en", "fr", "cs", "de", "es", "it", "nl", "pl")


def test_replies_of_every_client_are_cut_to_the_new_text():
    chosen = cases()
    result = score(chosen)
    printed = report(result, failures=True)
    print(printed)

    assert len(chosen) >= 120
    assert set(MUST_BE_PERFECT) <= set(result.total)
    assert all(result.share(language) == 1.0 for language in MUST_BE_PERFECT), printed
    assert result.share() >= 0.95, printed


def test_each_fixture_has_its_expected_lines():
    assert all(case.path.with_suffix(".expected").is_file() for case in cases())
    assert all(case.expected for case in cases())


def test_every_kind_of_trouble_is_written_in_eight_languages_and_cut_right():
    chosen = cases()
    result = score(chosen)
    written = {(case.kind, case.language) for case in chosen}
    assert {(kind, lang) for kind in KINDS for lang in KIND_LANGUAGES} <= written
    assert all(result.kind_share(kind) == 1.0 for kind in KINDS), report(result, failures=True)
