"""Only the new text of a reply is read: above or below the quote, without
signatures, from plain text or HTML, in any charset."""

from __future__ import annotations

import base64
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest

from pbem.mail.commands import read_commands
from pbem.mail.reply_text import UnreadableBody, body_text, new_text

ORIGINAL = "> Your turn. Some of your legal moves:\n>   tile 0,0 0,-1 1,-1\n>   resign\n"
LONG_QUOTED = "> Your turn in Taluva game tg-42. Some of your legal moves are listed below"


def test_top_posted_reply_reads_the_text_above_the_quote():
    body = f"tile 0,0 0,-1 1,-1\n\nOn Sun, 22 Nov 2026, pbem wrote:\n{ORIGINAL}"
    assert read_commands(new_text(body)).moves == ["tile 0,0 0,-1 1,-1"]


def test_bottom_posted_reply_reads_the_text_below_the_quote():
    body = f"On Sun, 22 Nov 2026, pbem wrote:\n{ORIGINAL}\nlegal\n"
    reading = read_commands(new_text(body))
    assert reading.commands == [("legal", "")] and reading.moves == []


def test_outlook_original_below_a_separator_is_not_read():
    body = "board\n\n-----Original Message-----\nFrom: pbem\nSent: Sunday\n\nresign\n"
    assert read_commands(new_text(body)).commands == [("board", "")]


def test_signature_is_not_read():
    body = "history\n\n-- \nAnn Example\nPhone 555 0100\n"
    assert read_commands(new_text(body)).commands == [("history", "")]


def test_html_only_mail_leaves_out_the_blockquote():
    message = EmailMessage()
    message.set_content("<div>chat hi all</div><blockquote>resign</blockquote>", subtype="html")
    assert read_commands(new_text(body_text(message))).commands == [("chat", "hi all")]


def test_any_declared_charset_is_decoded():
    raw = (
        b"Content-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    ) + base64.encodebytes("chat Grüße\n".encode("utf-16"))
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert read_commands(new_text(body_text(message))).commands == [("chat", "Grüße")]


def test_utf8_without_a_declared_charset_is_read():
    raw = b"Content-Type: text/plain\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + (
        "chat Grüße\n".encode()
    )
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert read_commands(new_text(body_text(message))).commands == [("chat", "Grüße")]


def test_bytes_foreign_to_the_declared_charset_are_refused_not_replaced():
    raw = b"Content-Type: text/plain; charset=us-ascii\r\n\r\nchat Gr\xfc\xdfe\n"
    message = BytesParser(policy=policy.default).parsebytes(raw)
    with pytest.raises(UnreadableBody, match="us-ascii, but it is not"):
        body_text(message)


def test_text_above_and_below_a_quote_is_kept_in_order():
    body = f"tile 0,1 -1,2 -1,1\n\nOn Sun, 22 Nov 2026, pbem wrote:\n{ORIGINAL}\nhut 1,0\n"
    assert read_commands(new_text(body)).moves == ["tile 0,1 -1,2 -1,1", "hut 1,0"]


def test_a_line_with_a_time_right_above_an_attribution_is_not_taken_into_it():
    body = f"chat see you at 10:30\nOn Sun, 22 Nov 2026 at 10:02, pbem wrote:\n{ORIGINAL}"
    assert read_commands(new_text(body)).commands == [("chat", "see you at 10:30")]


def test_a_closing_word_before_any_text_is_not_taken_for_a_signature():
    body = "Thanks\nhut 1,0\n\nCheers,\nAnn\n"
    assert read_commands(new_text(body)).moves == ["Thanks", "hut 1,0"]


def test_an_unquoted_original_after_a_header_block_is_not_read():
    body = "hut 1,0\nVon: pbem\nGesendet: Montag\n\ntile 0,0 0,-1 1,-1\n"
    assert read_commands(new_text(body)).moves == ["hut 1,0"]


def test_a_move_typed_right_under_a_quoted_line_is_not_taken_for_its_wrapped_rest():
    body = f"On Sun, 22 Nov 2026, pbem wrote:\n> Your turn.\ntile 0,1 -1,2 -1,1\n{ORIGINAL}"
    assert read_commands(new_text(body)).moves == ["tile 0,1 -1,2 -1,1"]
    body = f"On Sun, 22 Nov 2026, pbem wrote:\n{LONG_QUOTED}\ntile 0,1 -1,2 -1,1\n{ORIGINAL}"
    assert read_commands(new_text(body)).moves == ["tile 0,1 -1,2 -1,1"]
    body = f"On Sun, 22 Nov 2026, pbem wrote:\n{LONG_QUOTED}\nchat see you.\n\nhut 1,0\n"
    assert read_commands(new_text(body)).commands == [("chat", "see you.")]


def test_the_rest_of_a_quoted_line_wrapped_without_its_mark_is_quoted_text():
    body = f"On Sun, 22 Nov 2026, pbem wrote:\n{LONG_QUOTED}\nand described.\n\nhut 1,0\n"
    assert read_commands(new_text(body)).moves == ["hut 1,0"]
    body = f"On Sun, 22 Nov 2026, pbem wrote:\n{LONG_QUOTED}\nand described\n\nhut 1,0\n"
    assert read_commands(new_text(body)).moves == ["hut 1,0"]


def test_a_phone_signature_is_cut_only_where_nothing_new_follows_it():
    phone = f"hut 1,0\n\nSent from my iPhone\n\nOn Sun, 22 Nov 2026, pbem wrote:\n{ORIGINAL}"
    assert read_commands(new_text(phone)).moves == ["hut 1,0"]
    desk = "Sent from my desk, between two meetings:\nhut 1,0\n"
    assert read_commands(new_text(desk)).moves == [
        "Sent from my desk, between two meetings:",
        "hut 1,0",
    ]


def test_moves_below_a_line_that_says_someone_wrote_are_kept():
    body = "tile 0,1 -1,2 -1,1\nMy brother wrote:\nhut 1,0\n"
    assert read_commands(new_text(body)).moves == [
        "tile 0,1 -1,2 -1,1",
        "My brother wrote:",
        "hut 1,0",
    ]


def test_a_line_drawn_between_moves_keeps_the_moves_below_it():
    body = "tile 0,1 -1,2 -1,1\n==========\nhut 1,0\n"
    assert read_commands(new_text(body)).moves == ["tile 0,1 -1,2 -1,1", "==========", "hut 1,0"]


def test_a_name_and_title_without_a_phone_or_address_are_not_taken_for_a_contact_block():
    body = "hut 1,0\n\nAnn Player\nGames club of Leeds\n"
    assert read_commands(new_text(body)).moves == ["hut 1,0", "Ann Player", "Games club of Leeds"]


def test_a_contact_block_followed_by_more_text_or_holding_a_move_is_the_players_text():
    body = "hut 1,0\n\nAnn Player\nann@players.example\n\ntile 0,1 -1,2 -1,1\n"
    moves = ["hut 1,0", "Ann Player", "ann@players.example", "tile 0,1 -1,2 -1,1"]
    assert read_commands(new_text(body)).moves == moves
    body = "hut 1,0\n\nAnn Player\nann@players.example\ntile 0,1 -1,2 -1,1\n"
    assert read_commands(new_text(body)).moves == moves


def test_moves_and_commands_after_a_closing_word_are_the_players_text():
    tip = "tile 0,1 -1,2 -1,1\nThanks for the tip\nhut 1,0\n"
    assert read_commands(new_text(tip)).moves == [
        "tile 0,1 -1,2 -1,1",
        "Thanks for the tip",
        "hut 1,0",
    ]
    command = "hut 1,0\nThanks,\nlegal\n"
    assert read_commands(new_text(command)).commands == [("legal", "")]
    signed = "hut 1,0\n\nThanks,\nAnn Player\n12 High Street, Leeds LS1 4AB\n"
    assert read_commands(new_text(signed)).moves == ["hut 1,0"]
