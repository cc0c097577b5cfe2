"""Forged senders: From is read strictly, so a header lenient readers take
for a player's (`ann@example.org <eve@evil.example>`) plays nothing and
answers nobody; our host's sender check counts only for the From domain, and
a DMARC permerror or an SPF softfail without a DKIM signature of that domain
refuses the mail."""

from __future__ import annotations

import re

import pytest

from pbem.mail import inbound
from pbem.models import ChatMessage, ClockStop, Outbox
from tests.mail.conftest import OUR_HOST
from tests.mail.helpers import (
    count,
    listed_moves,
    mail_to,
    reply,
    submit_by_smtp,
    text_of,
    turn_mail,
)

EVIL_PASS = f"{OUR_HOST}; dmarc=pass header.from=evil.example; spf=pass smtp.mailfrom=evil.example"


def with_from(raw: bytes, value: str) -> bytes:
    """The mail with its From header written as given, byte for byte: a mail
    library would tidy a hostile header up."""
    return re.sub(rb"(?m)^From: .*\r\n", f"From: {value}\r\n".encode(), raw, count=1)


@pytest.mark.parametrize(
    "header",
    [
        "{ann} <eve@evil.example>",
        "{ann})<eve@evil.example>",
        "Ann <{ann}> eve@evil.example",
        "{ann}, eve@evil.example",
        "Ann: {ann}, eve@evil.example;",
    ],
)
def test_a_from_header_read_two_ways_plays_nothing_and_answers_nobody(
    rig, session, game_of_two, trusting_our_host, header
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    text = "vacation 2\nchat Hello from Ann"
    raw = reply(mail, ann.email, text, Authentication_Results=EVIL_PASS)
    raw = with_from(raw, header.format(ann=ann.email))
    row = submit_by_smtp(rig, raw, "eve@evil.example", str(mail["Reply-To"]))
    assert row.outcome == "refused" and row.detail.startswith("unclear sender: From ")
    assert row.seat_id is None
    assert count(session, ClockStop, ClockStop.user_id == ann.id) == 0
    assert count(session, ChatMessage, ChatMessage.game_id == game.id) == 0
    assert count(session, Outbox, Outbox.recipient_id == ann.id, Outbox.kind == "mail_answer") == 0
    assert count(session, Outbox, Outbox.to_address.in_([ann.email, "eve@evil.example"])) == 0


@pytest.mark.parametrize(
    ("results", "failure"),
    [
        (EVIL_PASS, "dmarc speaks for evil.example, not example.org"),
        (f"{OUR_HOST}; spf=pass smtp.mailfrom=eve@evil.example", "spf speaks for evil.example"),
        (f"{OUR_HOST}; dmarc=permerror header.from=example.org", "dmarc=permerror"),
        (
            f"{OUR_HOST}; spf=softfail smtp.mailfrom=example.org; dmarc=none",
            "spf=softfail and no dkim=pass",
        ),
        (  # a signature of another domain vouches for nothing here
            f"{OUR_HOST}; spf=softfail smtp.mailfrom=example.org; dkim=pass header.d=evil.example",
            "spf=softfail and no dkim=pass",
        ),
    ],
)
def test_a_sender_check_that_speaks_for_another_domain_or_errs_is_refused(
    rig, session, game_of_two, trusting_our_host, results, failure
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, "vacation 2", Authentication_Results=results)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.outcome == "refused" and row.detail.startswith(f"sender check failed: {failure}")
    assert count(session, ClockStop, ClockStop.user_id == ann.id) == 0
    assert "could not confirm" in text_of(mail_to(rig, ann, "not accepted"))


@pytest.mark.parametrize(
    "results",
    [
        f"{OUR_HOST}; dmarc=pass header.from=example.org; spf=pass smtp.mailfrom=example.org",
        f"{OUR_HOST}; spf=pass smtp.mailfrom=bounces.example.org",
        f"{OUR_HOST}; spf=softfail smtp.mailfrom=example.org; dkim=pass header.d=example.org",
    ],
)
def test_a_sender_check_for_the_from_domain_lets_the_move_in(
    rig, session, game_of_two, trusting_our_host, results
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, f"Ann <{ann.email}>", listed_moves(mail)[0], Authentication_Results=results)
    assert submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"])).outcome == "submitted"


@pytest.mark.parametrize(
    "header",
    [
        "{ann}",
        "<{ann}>",
        "Ann Nová <{ann}>",  # raw UTF-8, as some clients write a name
        '"Nová, Ann" <{ann}>',
        "=?utf-8?q?Ann_Nov=C3=A1?= <{ann}>",
        "{ann} (Ann)",
    ],
)
def test_a_from_header_that_names_the_player_plainly_plays(rig, session, game_of_two, header):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = with_from(reply(mail, ann.email, listed_moves(mail)[0]), header.format(ann=ann.email))
    assert submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"])).outcome == "submitted"


@pytest.mark.parametrize("local_part", ['"{ann}"', '"ann smith"'])
def test_a_quoted_address_no_player_can_have_ends_refused_and_unanswered(
    rig, session, game_of_two, local_part
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    sender = local_part.format(ann=ann.email) + "@evil.example"
    raw = with_from(reply(mail, ann.email, "vacation 2"), sender)
    row = submit_by_smtp(rig, raw, "eve@evil.example", str(mail["Reply-To"]))
    assert row.outcome == "refused" and row.detail.startswith("unclear sender: ")
    assert "not an e-mail address" in row.detail
    assert count(session, ClockStop, ClockStop.user_id == ann.id) == 0
    assert count(session, Outbox, Outbox.to_address.in_([ann.email, sender.lower()])) == 0


@pytest.mark.parametrize("looks_like", ["exаmple.org", "example.оrg"])  # Cyrillic а, о
def test_a_look_alike_address_in_raw_utf8_is_refused_not_failed(
    rig, session, game_of_two, looks_like
):
    """Raw 8-bit bytes in the address itself (not in the name before it): the
    reader failed on it (an ERROR in the log) instead of refusing it."""
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    sender = ann.email.replace("example.org", looks_like)
    raw = with_from(reply(mail, ann.email, "vacation 2"), f"Ann <{sender}>")
    row = submit_by_smtp(rig, raw, "eve@evil.example", str(mail["Reply-To"]))
    assert (row.outcome, row.detail) == (
        "refused",
        "unclear sender: From's address is not plain ASCII, as a look-alike's would be",
    )
    assert count(session, ClockStop, ClockStop.user_id == ann.id) == 0


def test_a_fault_of_ours_while_reading_ends_failed_and_undoes_the_reading(
    rig, session, game_of_two, monkeypatch
):
    """No mail found yet makes pbem fail, so one is made to: the rig's worker
    runs in this process."""
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    carry_out = inbound.carry_out

    def carry_out_then_fail(*args, **kwargs):
        carry_out(*args, **kwargs)
        raise RuntimeError("a bug")

    monkeypatch.setattr(inbound, "carry_out", carry_out_then_fail)
    raw = reply(mail, ann.email, "vacation 2\nchat Hello")
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert (row.outcome, row.detail, row.seat_id) == ("failed", "RuntimeError: a bug", None)
    assert count(session, ClockStop, ClockStop.user_id == ann.id) == 0
    assert count(session, ChatMessage, ChatMessage.game_id == game.id) == 0
