"""The registry of notice kinds is the one list: every kind has exactly one
writer of the shape its reader needs, no writer is left without a kind, and
what the outbox does with a kind (hold it, fold it, its language) is read
from its entry."""

from __future__ import annotations

from datetime import UTC, datetime

from pbem.mail.compose import ROW_WRITERS, SEAT_WRITERS
from pbem.mail.quiet_hours import ABOUT_THE_BOARD, NOT_FOR_DIGEST
from pbem.services.notifications import KINDS, Reader, held_until, queue_notice


def test_every_kind_has_one_writer_of_its_readers_shape():
    assert not set(SEAT_WRITERS) & set(ROW_WRITERS)
    assert set(SEAT_WRITERS) | set(ROW_WRITERS) == set(KINDS)
    assert set(SEAT_WRITERS) == {name for name, kind in KINDS.items() if kind.reader is Reader.SEAT}


def test_the_sweep_folds_and_the_digest_drops_what_the_entries_say():
    assert set(ABOUT_THE_BOARD) == {"your_turn", "moved", "reminder", "game_over"}
    assert set(NOT_FOR_DIGEST) == {"your_turn", "moved"}


def test_queue_notice_sets_the_hold_and_the_language_itself(session, make_user):
    night = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)  # 23:30 in Prague
    ann = make_user("Ann", quiet_hours="22:00-08:00")
    ann.time_zone = "Europe/Prague"
    assert held_until("sign_in", ann, night) is None  # at once: she asked for it
    assert held_until("digest", ann, night) == datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
    row = queue_notice(session, "sign_in", {"link": "x"}, recipient=ann, language="cs")
    assert row.payload == {"language": "cs", "link": "x"} and row.id is not None
    digest = queue_notice(session, "digest", {}, recipient=ann, language="cs")
    assert digest.payload == {}  # a digest speaks the reader's own language, never a page's
    session.rollback()
