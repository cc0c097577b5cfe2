"""Times as readers see them: their zone, and how far off, never misleading."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.i18n import in_language
from pbem.i18n.times import duration, local_time, relative

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("offset", "words"),
    [
        (timedelta(seconds=30), "now"),
        (timedelta(minutes=5), "in 5 minutes"),
        (timedelta(minutes=89), "in 89 minutes"),
        (timedelta(hours=2, minutes=40), "in 3 hours"),
        (timedelta(hours=47, minutes=59), "in 48 hours"),
        (timedelta(days=2), "in 2 days"),
        (timedelta(days=6, hours=13), "in 7 days"),
        (-timedelta(hours=5), "5 hours ago"),
        (-timedelta(days=3), "3 days ago"),
    ],
)
def test_relative_rounds_to_the_nearest_unit(offset, words):
    assert relative(NOW + offset, NOW) == words


def test_local_time_is_in_the_readers_zone_across_a_dst_change():
    # 2026-10-25: Prague goes back from CEST (+2) to CET (+1) at 03:00.
    before = datetime(2026, 10, 24, 16, 0, tzinfo=UTC)
    after = datetime(2026, 10, 26, 17, 0, tzinfo=UTC)
    assert local_time(before, "Europe/Prague", NOW) == "Sat 24 Oct, 18:00 (31 days ago)"
    assert local_time(after, "Europe/Prague", NOW) == "Mon 26 Oct, 18:00 (29 days ago)"
    assert local_time(NOW + timedelta(days=2), "America/New_York", NOW) == (
        "Thu 26 Nov, 07:00 (in 2 days)"
    )


def test_duration_names_at_most_two_units():
    assert duration(5 * 86400) == "5 days"
    assert duration(2 * 86400 + 3 * 3600 + 60) == "2 days 3 hours"
    assert duration(40 * 60) == "40 minutes"
    assert duration(0) == "nothing"


@pytest.mark.parametrize(
    ("language", "offset", "words"),
    [
        ("fr", timedelta(days=2), "dans 2 jours"),
        ("fr", -timedelta(minutes=3), "il y a 3 minutes"),
        ("fr", timedelta(seconds=5), "maintenant"),
        ("cs", timedelta(days=2), "za 2 dny"),
        ("cs", -timedelta(days=5), "před 5 dny"),
        ("cs", timedelta(hours=47, minutes=59), "za 48 hodin"),
    ],
)
def test_relative_is_in_the_readers_language(app, language, offset, words):
    with app.app_context(), in_language(language):
        assert relative(NOW + offset, NOW) == words


def test_local_time_and_durations_in_french_and_czech(app):
    moment = datetime(2026, 11, 26, 17, 0, tzinfo=UTC)
    with app.app_context(), in_language("fr"):
        assert local_time(moment, "Europe/Paris", NOW) == "jeu. 26 nov., 18:00 (dans 2 jours)"
        assert duration(2 * 86400 + 3 * 3600) == "2\xa0jours 3\xa0heures"  # non-breaking
        assert duration(0) == "rien"
    with app.app_context(), in_language("cs"):
        assert local_time(moment, "Europe/Prague", NOW) == "čt 26 lis, 18:00 (za 2 dny)"
        assert duration(5 * 86400) == "5 dnů"
