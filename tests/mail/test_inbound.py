"""The inbound pipeline: commands, the stale guard, and hostile or malformed
mail, each with its clear outcome and nothing lost or applied twice; raw mail
kept PBEM_MAIL_KEEP_DAYS."""

from __future__ import annotations

import smtplib
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid

import pytest
from sqlalchemy import select, update

from pbem.mail import imap_poller, inbound
from pbem.models import ChatMessage, InboundMessage, InboundStatus, Outbox, Submission, utcnow
from pbem.task_names import FORGET_INBOUND_RAW
from tests.mail.conftest import DOMAIN, OUR_HOST
from tests.mail.helpers import (
    board_png,
    count,
    listed_moves,
    mail_to,
    message_id_of,
    processed,
    reply,
    send_imap,
    send_smtp,
    submit_by_http,
    submit_by_smtp,
    text_of,
    turn_mail,
)
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import (
    FESTIVAL_AFTER_A_DRAW,
    PALACE_TURN,
    java_ann_first,
    judged,
    moves_of,
    start_game,
)
from worker.celery_app import beat_schedule

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def refused_at_rcpt(rig, raw: bytes, sender: str, to: str) -> int:
    """The SMTP door's code for `to`; the mail must not be taken in."""
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send_smtp(raw, rig.listener_port, sender, to)
    return refused.value.recipients[to][0]


def test_a_move_by_reply_is_played_and_answered(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    move = listed_moves(mail)[0]
    row = submit_by_smtp(rig, reply(mail, ann.email, move), ann.email, str(mail["Reply-To"]))
    assert row.outcome == "submitted" and row.channel == "smtp"
    judged(rig.app, row.submission_id)
    answer = mail_to(rig, ann, "accepted")
    assert move in text_of(answer)
    assert moves_of(session, game) == [(1, 0, move)]


def test_wrong_token_is_refused_at_rcpt_by_smtp_so_nothing_is_answered(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    for to in (f"play+not-a-seat@{DOMAIN}", f"postmaster@{DOMAIN}"):
        raw = reply(mail, ann.email, listed_moves(mail)[0], quote=False, To=to)
        assert refused_at_rcpt(rig, raw, ann.email, to) == 550
        message_id = message_id_of(raw)
        assert count(session, InboundMessage, InboundMessage.message_id == message_id) == 0
    assert count(session, Outbox, Outbox.to_address == ann.email) == 0


def test_wrong_token_through_another_door_gets_a_refusal_that_reveals_nothing(
    rig, session, game_of_two
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    to = f"play+not-a-seat@{DOMAIN}"
    raw = reply(mail, ann.email, listed_moves(mail)[0], quote=False, To=to)
    row = submit_by_http(rig, raw)
    assert (row.outcome, row.seat_id, row.submission_id) == ("refused", None, None)
    refusal = mail_to(rig, ann, "not accepted")
    body = text_of(refusal)
    assert game.public_id not in body and "Bob" not in body and "Taluva" not in body
    assert refusal["Auto-Submitted"] == "auto-replied"
    assert moves_of(session, game) == []


def test_spoofed_from_is_refused_and_nothing_is_played(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    row = submit_by_smtp(
        rig,
        reply(mail, "mallory@evil.test", listed_moves(mail)[0]),
        "mallory@evil.test",
        str(mail["Reply-To"]),
    )
    assert row.outcome == "refused" and row.submission_id is None
    assert game.public_id not in text_of(mail_to(rig, "mallory@evil.test", "not accepted"))
    assert count(session, Submission, Submission.game_id == game.id) == 0


@pytest.mark.parametrize(
    ("results", "failure"),
    [
        (f"{OUR_HOST}; dmarc=fail (p=reject) header.from=example.org", "dmarc=fail"),
        (
            f"{OUR_HOST}; spf=fail smtp.mailfrom=example.org; dkim=none",
            "spf=fail and no dkim=pass",
        ),
        ("MX.PBEM.TEST 1; spf=fail smtp.mailfrom=example.org", "spf=fail and no dkim=pass"),
    ],
)
def test_a_failed_sender_check_of_our_host_is_refused(
    rig, session, game_of_two, trusting_our_host, results, failure
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    # A forged "pass" with our id lower down does not hide the host's "fail".
    forged = f"{OUR_HOST}; dmarc=pass header.from=example.org; spf=pass"
    raw = reply(mail, ann.email, listed_moves(mail)[0], Authentication_Results=results)
    message = BytesParser(policy=policy.default).parsebytes(raw)
    message["Authentication-Results"] = forged
    raw = message.as_bytes(policy=policy.SMTP)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert (row.outcome, row.detail) == ("refused", f"sender check failed: {failure}")
    refusal = text_of(mail_to(rig, ann, "not accepted"))
    assert "could not confirm" in refusal and game.public_id not in refusal
    assert count(session, Submission, Submission.game_id == game.id) == 0


@pytest.mark.parametrize(
    "results",
    [
        f"{OUR_HOST}; spf=fail smtp.mailfrom=example.org; dkim=pass header.d=example.org",
        "mx.elsewhere.test; dmarc=fail header.from=example.org",  # not our host: not read
        f"{OUR_HOST}; (unreadable",
    ],
)
def test_a_passing_or_untrusted_sender_check_lets_the_move_in(
    rig, session, game_of_two, trusting_our_host, results
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, listed_moves(mail)[0], Authentication_Results=results)
    assert submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"])).outcome == "submitted"


def test_without_an_authserv_id_no_authentication_results_is_trusted(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    results = f"{OUR_HOST}; dmarc=fail header.from=example.org"
    raw = reply(mail, ann.email, listed_moves(mail)[0], Authentication_Results=results)
    assert submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"])).outcome == "submitted"


def test_a_duplicate_message_id_is_stored_and_applied_once(rig, imap, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, listed_moves(mail)[0])
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    judged(rig.app, row.submission_id)
    send_smtp(raw, rig.listener_port, ann.email, str(mail["Reply-To"]))
    send_imap(raw, imap)
    assert imap_poller.poll(rig.app) == 0  # read, found a duplicate, stored nothing
    assert count(session, InboundMessage, InboundMessage.message_id == row.message_id) == 1
    assert count(session, Submission, Submission.game_id == game.id) == 1
    assert len(moves_of(session, game)) == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X-Autoreply": "yes"},
        {"Return-Path": "<>"},
    ],
)
def test_auto_replies_and_bounces_are_ignored_without_an_answer(rig, session, game_of_two, headers):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, listed_moves(mail)[0], **headers)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.outcome == "ignored"
    assert count(session, Outbox, Outbox.to_address == ann.email) == 0
    assert count(session, Submission, Submission.game_id == game.id) == 0


@pytest.mark.parametrize(
    "subject", ["Out of office", "Automatic reply: your turn", "Réponse automatique", "Abwesenheit"]
)
def test_out_of_office_by_subject_alone_is_ignored_without_an_answer(
    rig, session, game_of_two, subject
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, listed_moves(mail)[0], Subject=subject)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.outcome == "ignored"
    assert count(session, Outbox, Outbox.recipient_id == ann.id, Outbox.kind == "mail_answer") == 0
    assert count(session, Outbox, Outbox.to_address == ann.email) == 0
    assert count(session, Submission, Submission.game_id == game.id) == 0


def test_a_bounce_from_the_null_sender_is_ignored(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, listed_moves(mail)[0])
    row = submit_by_smtp(rig, raw, "", str(mail["Reply-To"]))
    assert row.outcome == "ignored" and row.envelope_from == ""
    assert count(session, Submission, Submission.game_id == game.id) == 0


def test_oversized_mail_is_refused_at_the_smtp_door_and_by_mail_from_imap(
    rig, imap, session, game_of_two
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    big = reply(mail, ann.email, listed_moves(mail)[0] + "\n" + "x" * 70 * 4000)
    with pytest.raises(smtplib.SMTPException) as refused:
        send_smtp(big, rig.listener_port, ann.email, str(mail["Reply-To"]))
    assert "552" in str(refused.value) or "too long" in str(refused.value).lower()
    assert count(session, InboundMessage, InboundMessage.message_id == message_id_of(big)) == 0
    send_imap(big, imap)
    assert imap_poller.poll(rig.app) == 1
    row = processed(rig.app, message_id_of(big))
    assert (row.outcome, row.detail) == ("refused", "too large")
    assert len(row.raw) == len(big)  # kept whole all the same
    assert "too large" in text_of(mail_to(rig, ann, "not accepted"))
    assert count(session, Submission, Submission.game_id == game.id) == 0


def test_a_binary_attachment_is_ignored_and_the_move_is_played(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    move = listed_moves(mail)[0]
    message = BytesParser(policy=policy.default).parsebytes(reply(mail, ann.email, move))
    message.add_attachment(bytes(range(256)) * 40, "application", "octet-stream", filename="x.bin")
    raw = message.as_bytes(policy=policy.SMTP)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.outcome == "submitted"
    assert judged(rig.app, row.submission_id).status == "accepted"
    assert moves_of(session, game) == [(1, 0, move)]


def test_broken_mime_is_kept_and_answered_without_playing_anything(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = (
        (
            f"From: {ann.email}\r\nTo: {mail['Reply-To']}\r\nSubject: broken\r\n"
            f"Message-ID: {make_msgid(domain='players.test')}\r\n"
            'Content-Type: multipart/mixed; boundary="never-closed"\r\n\r\n'
            "--never-closed\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\n%%%not base64%%%\r\n"
        ).encode()
        + bytes([0xFF, 0xFE, 0x00]) * 10
        + b"\r\n"
    )
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.raw == raw
    assert row.outcome == "unreadable" and row.submission_id is None
    assert "could not read" in text_of(mail_to(rig, ann, "answer"))
    assert moves_of(session, game) == []


def test_an_illegal_move_is_refused_with_the_reason_and_nothing_is_played(
    rig, session, game_of_two
):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    row = submit_by_smtp(
        rig, reply(mail, ann.email, "tile 99,99 99,98 98,99"), ann.email, str(mail["Reply-To"])
    )
    assert judged(rig.app, row.submission_id).status == "rejected"
    refused = mail_to(rig, ann, "not accepted")
    assert "not accepted" in text_of(refused) and board_png(refused)
    assert refused["In-Reply-To"] is not None
    assert moves_of(session, game) == []


def test_a_stale_reply_is_refused_with_the_current_board(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    first = turn_mail(rig, game, ann)
    tile = listed_moves(first)[0]
    row = submit_by_smtp(rig, reply(first, ann.email, tile), ann.email, str(first["Reply-To"]))
    judged(rig.app, row.submission_id)
    # Answering the first mail again, after the tile: the position has moved on.
    stale = reply(first, ann.email, tile)
    row = submit_by_smtp(rig, stale, ann.email, str(first["Reply-To"]))
    assert row.outcome == "stale" and row.submission_id is None
    answer = mail_to(rig, ann, "answer")
    assert "1 move has been played since then" in text_of(answer) and board_png(answer)
    assert len(moves_of(session, game)) == 1


def test_a_stale_reply_whose_move_is_still_legal_is_played(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    first = turn_mail(rig, game, ann)
    tile = listed_moves(first)[0]
    row = submit_by_smtp(rig, reply(first, ann.email, tile), ann.email, str(first["Reply-To"]))
    judged(rig.app, row.submission_id)
    build = listed_moves(mail_to(rig, ann, "accepted"))[0]  # the turn goes on: no 'your turn'
    row = submit_by_smtp(rig, reply(first, ann.email, build), ann.email, str(first["Reply-To"]))
    assert row.outcome == "submitted"
    assert judged(rig.app, row.submission_id).status == "accepted"
    assert [text for _, _, text in moves_of(session, game)] == [tile, build]


def test_commands_legal_board_history_help_and_chat(rig, session, game_of_two):
    game, ann, bob = game_of_two
    mail = turn_mail(rig, game, ann)
    body = "legal\nboard\nhistory\nhelp\nchat Good luck, Bob!"
    row = submit_by_smtp(rig, reply(mail, ann.email, body), ann.email, str(mail["Reply-To"]))
    assert row.outcome == "answered" and row.submission_id is None
    answer = text_of(mail_to(rig, ann, "answer"))
    assert "legal moves:" in answer and "All moves so far" in answer and "chat TEXT" in answer
    assert "newaddress" in answer
    chat = mail_to(rig, bob, "message from Ann")
    assert "Good luck, Bob!" in text_of(chat)
    assert "Sent to 1 other player." in answer
    assert moves_of(session, game) == []
    kept = count(
        session, ChatMessage, ChatMessage.game_id == game.id, ChatMessage.channel == "mail"
    )
    assert kept == 1  # the page and the API show it too


def test_a_reply_to_a_chat_mail_is_chat_unless_it_holds_a_move(rig, session, make_user):
    """Issue 50: Ann's good wishes answered Petr's chat mail and were judged
    as a move ("this line was not read", "not your turn")."""
    petr, ann = make_user("Petr"), make_user("Ann")
    game = start_game(rig.app, session, "taluva", [petr, ann])
    turn = turn_mail(rig, game, petr)
    leaving = reply(turn, petr.email, "chat Je pars demain en voiture pour Lyon.")
    submit_by_smtp(rig, leaving, petr.email, str(turn["Reply-To"]))
    told = mail_to(rig, ann, "message from Petr")
    wishes = "Bonne route Petr, et fais attention sur la neige !"
    row = submit_by_smtp(rig, reply(told, ann.email, wishes), ann.email, str(told["Reply-To"]))
    assert row.outcome == "answered" and row.submission_id is None, row.detail
    wished = mail_to(rig, petr, "message from Ann")
    assert wishes in text_of(wished)
    answer = text_of(mail_to(rig, ann, "answer"))
    assert "Sent to 1 other player." in answer and "not read" not in answer
    texts = session.scalars(
        select(ChatMessage.text).where(ChatMessage.game_id == game.id).order_by(ChatMessage.id)
    )
    assert list(texts) == ["Je pars demain en voiture pour Lyon.", wishes]

    # Petr answers the thread's latest mail, Ann's chat, with his move.
    tile = listed_moves(turn)[0]
    row = submit_by_smtp(
        rig, reply(wished, petr.email, f"Merci !\n{tile}"), petr.email, str(wished["Reply-To"])
    )
    assert row.outcome == "submitted", row.detail
    assert judged(rig.app, row.submission_id).status == "accepted"
    assert moves_of(session, game) == [(1, 0, tile)]


def test_chat_against_bots_says_plainly_that_bots_do_not_read_it(rig, session, make_user):
    ann = make_user("Ann")
    game = start_game(rig.app, session, "taluva", [ann, "bot"])
    mail = turn_mail(rig, game, ann)
    rig.app.config["PBEM_CHAT_MAX_CHARS"] = 20
    try:
        long = reply(mail, ann.email, "chat " + "x" * 21)
        submit_by_smtp(rig, long, ann.email, str(mail["Reply-To"]))
        refused = text_of(mail_to(rig, ann, "answer"))
        hello = reply(mail, ann.email, "chat Hello bot")
        submit_by_smtp(rig, hello, ann.email, str(mail["Reply-To"]))
        answer = text_of(mail_to(rig, ann, "answer"))
    finally:
        rig.app.config["PBEM_CHAT_MAX_CHARS"] = 500
    assert "at most 20 characters, not 21" in refused
    assert "bots do not read chat" in answer and "Sent to 0" not in answer
    texts = session.scalars(select(ChatMessage.text).where(ChatMessage.game_id == game.id))
    assert list(texts) == ["Hello bot"]


def test_resign_hands_the_seat_to_a_bot_and_stops_the_mail(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann)
    row = submit_by_smtp(rig, reply(mail, ann.email, "resign"), ann.email, str(mail["Reply-To"]))
    assert row.outcome == "resigned"
    answer = text_of(mail_to(rig, ann, "answer"))
    assert "You resigned" in answer and "with your moves" not in answer  # she has none to send
    assert "Ann resigned" in text_of(mail_to(rig, bob, "Ann resigned"))
    turn_mail(rig, game, bob)  # the bot played Ann's turn, so Bob is asked
    session.expire_all()
    seat = session.get(type(game.seats[0]), game.seats[0].id)
    assert seat.resigned_at is not None and seat.bot == "random"
    assert {c for p, _, c in [(m.seat.position, m.ply, m.channel) for m in seat.game.moves]} == {
        "bot"
    }
    # Ann's later mail is refused like a stranger's, and she gets no more turns.
    again = submit_by_smtp(rig, reply(mail, ann.email, "board"), ann.email, str(mail["Reply-To"]))
    assert again.outcome == "refused"


def test_resign_with_other_lines_does_nothing(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    tile = listed_moves(mail)[0]
    row = submit_by_smtp(
        rig, reply(mail, ann.email, f"{tile}\nresign"), ann.email, str(mail["Reply-To"])
    )
    assert row.outcome == "refused"
    assert "only line" in text_of(mail_to(rig, ann, "answer"))
    session.expire_all()
    assert session.get(type(game.seats[0]), game.seats[0].id).resigned_at is None
    assert moves_of(session, game) == []


def test_html_only_reply_in_latin1_is_read(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    move = listed_moves(mail)[0]
    message = EmailMessage()
    message["From"], message["To"] = ann.email, str(mail["Reply-To"])
    message["Subject"] = "Re: " + str(mail["Subject"])
    message["Message-ID"] = make_msgid(domain="players.test")
    message["In-Reply-To"] = str(mail["Message-ID"])
    markup = (
        f"<html><body><div>{move}</div><div>Grüße, Ann</div>"
        "<div class='gmail_quote'><blockquote>legal<br>resign</blockquote></div></body></html>"
    )
    message.set_content(markup, subtype="html", charset="iso-8859-1")
    raw = message.as_bytes(policy=policy.SMTP)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert row.outcome == "submitted"
    judged(rig.app, row.submission_id)
    assert [text for _, _, text in moves_of(session, game)] == [move]


def test_http_endpoint_needs_the_token_and_stores_raw_mime(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    raw = reply(mail, ann.email, listed_moves(mail)[0])
    client = rig.app.test_client()
    assert client.post("/mail/inbound", data=raw).status_code == 401
    answer = client.post(
        "/mail/inbound", data=raw, headers={"Authorization": "Bearer inbound-secret"}
    )
    assert answer.status_code == 202
    assert processed(rig.app, message_id_of(raw)).outcome == "submitted"
    again = client.post(
        "/mail/inbound", data=raw, headers={"Authorization": "Bearer inbound-secret"}
    )
    assert again.json == {"stored": False, "reason": "duplicate Message-ID"}
    big = client.post(
        "/mail/inbound",
        data=b"x" * 300_000,
        headers={"Authorization": "Bearer inbound-secret"},
    )
    assert big.status_code == 413


def test_a_stale_reply_counts_the_moves_played_since_its_mail(rig, session, make_user):
    ann = make_user("Ann")
    game = start_game(rig.app, session, "taluva", [ann, "bot"])
    first = turn_mail(rig, game, ann)
    row = submit_by_smtp(
        rig, reply(first, ann.email, listed_moves(first)[0]), ann.email, str(first["Reply-To"])
    )
    judged(rig.app, row.submission_id)
    second = mail_to(rig, ann, "accepted")  # the answer to move 1 lists the builds
    build = listed_moves(second)[0]
    row = submit_by_smtp(rig, reply(second, ann.email, build), ann.email, str(second["Reply-To"]))
    judged(rig.app, row.submission_id)
    turn_mail(rig, game, ann)  # the bot has played its tile and build: 4 moves in all
    row = submit_by_smtp(rig, reply(second, ann.email, build), ann.email, str(second["Reply-To"]))
    assert row.outcome == "stale"
    text = text_of(mail_to(rig, ann, "answer"))
    assert "after move 1, but 3 moves have been played since then" in text


def test_a_body_that_is_not_in_its_declared_charset_is_refused(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    move = listed_moves(mail)[0]
    raw = (
        f"From: {ann.email}\r\nTo: {mail['Reply-To']}\r\nSubject: Re: {mail['Subject']}\r\n"
        f"Message-ID: {make_msgid(domain='players.test')}\r\n"
        f"In-Reply-To: {mail['Message-ID']}\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        f"{move}\r\n"
    ).encode() + "Grüße, Ann\r\n".encode("latin-1")  # says UTF-8, is Latin-1
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert (row.outcome, row.submission_id) == ("unreadable", None)
    answer = text_of(mail_to(rig, ann, "answer"))
    assert "could not read" in answer and "utf-8, but it is not" in answer
    assert count(session, Submission, Submission.game_id == game.id) == 0


def test_newaddress_gives_the_seat_a_new_address_and_the_old_one_stops(rig, session, game_of_two):
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    old_address = str(mail["Reply-To"])
    row = submit_by_smtp(rig, reply(mail, ann.email, "newaddress"), ann.email, old_address)
    assert row.outcome == "answered"
    answer = mail_to(rig, ann, "answer")
    session.expire_all()
    token = session.get(type(game.seats[0]), game.seats[0].id).token
    assert str(answer["Reply-To"]) == f"play+{token}@{DOMAIN}" != old_address
    assert "new secret mail address" in text_of(answer)
    move = listed_moves(mail)[0]
    assert refused_at_rcpt(rig, reply(mail, ann.email, move), ann.email, old_address) == 550
    stale = submit_by_http(rig, reply(mail, ann.email, move))
    assert (stale.outcome, stale.seat_id) == ("refused", None)
    mail_to(rig, ann, "not accepted")
    row = submit_by_smtp(rig, reply(answer, ann.email, move), ann.email, str(answer["Reply-To"]))
    assert row.outcome == "submitted"
    assert judged(rig.app, row.submission_id).status == "accepted"


def received_days_ago(session, row_id: int, days: int) -> None:
    session.execute(
        update(InboundMessage)
        .where(InboundMessage.id == row_id)
        .values(received_at=utcnow() - timedelta(days=days))
    )
    session.commit()


def test_the_sweep_forgets_raw_mail_older_than_the_kept_days(
    rig, session, game_of_two, monkeypatch
):
    monkeypatch.setitem(rig.app.config, "PBEM_MAIL_KEEP_DAYS", 30)
    game, ann, _bob = game_of_two
    mail = turn_mail(rig, game, ann)
    to = str(mail["Reply-To"])
    old_raw = reply(mail, ann.email, "board")
    old = submit_by_smtp(rig, old_raw, ann.email, to)
    recent = submit_by_smtp(rig, reply(mail, ann.email, "history"), ann.email, to)
    unread = inbound.store(session, reply(mail, ann.email, "legal"), "http")  # no task: unread
    received_days_ago(session, old.id, 31)
    received_days_ago(session, recent.id, 29)
    received_days_ago(session, unread.id, 40)

    rig.app.extensions["celery"].send_task(FORGET_INBOUND_RAW)

    def forgotten() -> InboundMessage | None:
        session.expire_all()
        row = session.get(InboundMessage, old.id)
        return row if row.raw is None else None

    row = wait_for(forgotten, what="the old mail's bytes to be forgotten")
    assert (row.status, row.outcome, row.message_id) == ("done", "answered", old.message_id)
    assert session.get(InboundMessage, recent.id).raw is not None
    kept = session.get(InboundMessage, unread.id)
    assert kept.status == InboundStatus.RECEIVED and kept.raw is not None
    assert inbound.store(session, old_raw, "smtp") is None  # a resent copy is still a duplicate


def test_the_beat_runs_the_sweep():
    schedule = beat_schedule({"PBEM_SWEEP_SECONDS": 60})
    assert schedule["forget-inbound-raw"] == {"task": FORGET_INBOUND_RAW, "schedule": 60.0}


def test_a_refusal_after_moves_of_the_turn_asks_only_for_its_rest(rig, session, make_user):
    """Issue 50: told to send the whole turn again after its draws, a player
    got "at most 2 cards a turn"; the refusal names the moves that stand."""
    ann = make_user("Ann")
    game = java_ann_first(rig.app, session, ann)
    mail = turn_mail(rig, game, ann)
    for moves in ("double A3 B3 village=B3", "draw deck\ndraw deck"):
        row = submit_by_smtp(rig, reply(mail, ann.email, moves), ann.email, str(mail["Reply-To"]))
        assert judged(rig.app, row.submission_id).status == "accepted"
        mail = mail_to(rig, ann, ": accepted")
    row = submit_by_smtp(
        rig, reply(mail, ann.email, "festival B3 P"), ann.email, str(mail["Reply-To"])
    )
    assert judged(rig.app, row.submission_id).status == "rejected"
    refused = mail_to(rig, ann, "not accepted")
    said = " ".join(text_of(refused).split())
    assert (
        "Nothing of it was applied, but the moves you played before it in this turn stand "
        "(double A3 B3 village=B3, draw deck, draw deck): send only the rest of your turn."
    ) in said
    assert "whole turn again" not in said

    row = submit_by_smtp(rig, reply(refused, ann.email, "end"), ann.email, str(refused["Reply-To"]))
    assert judged(rig.app, row.submission_id).status == "accepted"  # the advice was right


def test_a_draw_by_mail_stands_when_a_move_after_it_is_refused(rig, session, make_user):
    ann = make_user("Ann")
    game = java_ann_first(rig.app, session, ann)
    mail = turn_mail(rig, game, ann)
    body = "\n".join(FESTIVAL_AFTER_A_DRAW)
    row = submit_by_smtp(rig, reply(mail, ann.email, body), ann.email, str(mail["Reply-To"]))
    assert row.outcome == "submitted"
    assert judged(rig.app, row.submission_id).status == "partial"
    answer = mail_to(rig, ann, "accepted in part")
    text = text_of(answer)
    assert "not played festival B3 P" in text and "a draw cannot be taken back" in text
    assert "your hand: M D MP DP" in text and board_png(answer)
    assert [t for _, _, t in moves_of(session, game)] == [*PALACE_TURN, "draw deck"]
