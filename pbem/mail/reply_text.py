"""The new text of a reply: what the player wrote above the quote, below it,
or both.

Plain text is preferred; an HTML-only mail is turned into text with its
quoted blocks left out. Then the lines are walked once: a quote header
(attribution, Outlook header block, separator; see reply_patterns) followed
by '>' lines ends with them and the text after it is read again; one followed
by an unquoted original ends the new text. A line a client wrapped out of a
quote without its '>' stays in the quote. A signature ("-- ", a closing, a
contact block, "Sent from my phone" where nothing new follows) runs until
the next quote. Both parts of a reply written around a quote are kept, in
order, so that a turn is never cut in two; what is only uncertain (a line
"Bob wrote:" with no quote after it) is kept for the game to judge.
"""

from __future__ import annotations

import re
from email.message import EmailMessage, MIMEPart
from html.parser import HTMLParser

from pbem.i18n.command_words import command_named
from pbem.mail import reply_patterns as patterns

QUOTED = re.compile(r"^\s*>")
HEADER_BLOCK_MAX_LINES = 20  # an Outlook header block, its fields run on or stand apart
WRAP_WIDTH = 72  # where mail clients wrap quoted text, at the latest
CONTACT_BLOCK_MAX_LINES = 6
SENTENCE_END = (".", "!", "?", ":")


class _HtmlText(HTMLParser):
    """Text of an HTML body without <blockquote> (the quote) and invisible parts."""

    SKIP = frozenset({"blockquote", "style", "script", "head"})
    BREAKS = frozenset({"p", "div", "li", "tr", "pre", "h1", "h2", "h3"})
    VOID = frozenset({"br", "img", "hr", "meta", "input", "link", "wbr", "col", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0  # depth inside a skipped element
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            if tag == "br" and not self.skipping:
                self.parts.append("\n")
        elif self.skipping:
            self.skipping += 1
        elif tag in self.SKIP or (tag == "div" and _is_quote_div(attrs)):
            self.skipping = 1
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.skipping:
            self.skipping -= 1
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def _is_quote_div(attrs: list[tuple[str, str | None]]) -> bool:
    classes = " ".join(value or "" for name, value in attrs if name == "class")
    return "gmail_quote" in classes or "moz-cite-prefix" in classes


def html_to_text(markup: str) -> str:
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts)


class UnreadableBody(ValueError):
    """The body's encoding or charset is broken: guessing could invent moves."""


def body_text(message: EmailMessage) -> str:
    """The readable body, decoded from whatever charset it declares; an
    unknown or missing charset is read as UTF-8 if it is valid UTF-8."""
    part = message.get_body(("plain", "html"))
    if part is None:
        return ""
    content = _decoded(part)
    if not isinstance(content, str):
        return ""
    content = content.replace("\x00", "")  # no database keeps NUL in text
    return html_to_text(content) if part.get_content_subtype() == "html" else content


def _decoded(part: MIMEPart) -> str:
    """Strictly in the declared charset: a replacement character for each bad
    byte would let a garbled text be read as moves."""
    declared = part.get_param("charset")
    try:
        return part.get_content(errors="strict")
    except UnicodeDecodeError:
        if declared is not None:
            raise UnreadableBody(f"it says its text is in {declared}, but it is not") from None
    except (LookupError, ValueError, AssertionError):  # unknown charset, broken encoding
        if part.defects:
            defects = ", ".join(type(d).__name__ for d in part.defects)
            raise UnreadableBody(f"its encoding is broken: {defects}") from None
    try:
        payload = part.get_payload(decode=True)
        return (payload if isinstance(payload, bytes) else b"").decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableBody("its text is in an unknown charset") from None


def new_text(body: str) -> str:
    """Only the lines the author wrote in this reply: above the quote, below
    it, or both (in order), without quote headers, quotes and signatures."""
    lines = [_clean(line) for line in body.splitlines()]
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        header_end = _quote_header_end(lines, index)
        if header_end is not None:
            after = _next_written(lines, header_end)
            if after is None or not QUOTED.match(lines[after]):
                break  # the original follows unquoted: nothing after it is new
            index = _after_quote(lines, after)
        elif QUOTED.match(line):
            index = _after_quote(lines, index)
        elif (
            patterns.starts_signature(line)
            or (patterns.is_sent_from(line) and _nothing_new_after(lines, index + 1))
            or (any(kept) and patterns.is_closing(line) and _signs_off(lines, index))
        ):
            index = _after_signature(lines, index + 1)
        elif any(kept) and (contact_end := _contact_block_end(lines, index)) is not None:
            index = contact_end
        else:
            kept.append(line)
            index += 1
    return "\n".join(kept).strip()


def _clean(line: str) -> str:
    """Without the invisible spaces HTML mail leaves (no-break, zero width)."""
    return line.replace("\xa0", " ").replace("\u200b", "").replace("\ufeff", "").rstrip()


def _next_written(lines: list[str], index: int) -> int | None:
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index if index < len(lines) else None


def _after_quote(lines: list[str], index: int) -> int:
    while index < len(lines) and (
        QUOTED.match(lines[index]) or not lines[index].strip() or _continues_quote(lines, index)
    ):
        index += 1
    return index


def _continues_quote(lines: list[str], index: int) -> bool:
    """Whether lines[index], unquoted, is the rest of a quoted line the mail
    client wrapped without its '>': its first word would not have fitted on
    the quoted line before it, which breaks off mid-sentence, and a quote
    goes on right after it or it ends the quote: a sentence's end, or words
    that are neither a command nor a move (no place, no digit)."""
    before, words = lines[index - 1] if index else "", lines[index].split()
    if (
        not words
        or not QUOTED.match(before)
        or len(before) + 1 + len(words[0]) <= WRAP_WIDTH
        or before.endswith(SENTENCE_END)
        or patterns.names_a_place(lines[index])  # a move, even typed right under the quote
        or command_named(words[0]) is not None
    ):
        return False
    following = lines[index + 1] if index + 1 < len(lines) else ""
    if QUOTED.match(following):
        return True
    if following.strip():
        return False
    digits = any(char.isdigit() for char in lines[index])
    return lines[index].endswith(SENTENCE_END) or (len(words) > 1 and not digits)


def _nothing_new_after(lines: list[str], index: int) -> bool:
    """Whether only a quote, a quote header or nothing follows lines[index - 1]."""
    after = _next_written(lines, index)
    if after is None or QUOTED.match(lines[after]):
        return True
    return _quote_header_end(lines, after) is not None


def _contact_block_end(lines: list[str], index: int) -> int | None:
    """The end of a signature's contact block (name, title, phone, address)
    starting at lines[index] after a blank line, if nothing new follows it."""
    if (index and lines[index - 1].strip()) or not patterns.is_name(lines[index].strip()):
        return None
    end = index + 1
    while end < len(lines) and lines[end].strip() and not QUOTED.match(lines[end]):
        end += 1
    block = [line.strip() for line in lines[index + 1 : end]]
    if not 1 <= len(block) < CONTACT_BLOCK_MAX_LINES or not any(map(patterns.is_contact, block)):
        return None
    if not _signs_off(lines, index) or not _nothing_new_after(lines, end):
        return None
    return end


def _signs_off(lines: list[str], index: int) -> bool:
    """Whether the closing at lines[index] ends the player's text: no line
    after it, up to the next quote, names a board place or a command
    ("Thanks for the tip" above "hut 2,1" is the player's text)."""
    return not any(
        (patterns.names_a_place(line) and not patterns.is_contact(line))
        or command_named(line.split(maxsplit=1)[0]) is not None
        for line in lines[index + 1 : _after_signature(lines, index + 1)]
        if line.strip()
    )


def _after_signature(lines: list[str], index: int) -> int:
    """A signature runs until a quote or its header starts."""
    while index < len(lines):
        if QUOTED.match(lines[index]) or _quote_header_end(lines, index) is not None:
            break
        index += 1
    return index


def _quote_header_end(lines: list[str], index: int) -> int | None:
    """The index after the quote header starting at lines[index], or None."""
    line = lines[index].strip()
    if not line or QUOTED.match(line):
        return None
    if patterns.is_separator(line) or (patterns.is_rule(line) and _forward_follows(lines, index)):
        return index + 1
    for span in (1, 2, 3):
        if span > 1 and not _wrap_continues(lines, index, span):
            break
        joined = " ".join(part.strip() for part in lines[index : index + span])
        if patterns.is_certain_attribution(joined):
            return index + span
        if (
            patterns.is_attribution(joined)
            or patterns.is_dated_attribution(joined)
            or patterns.is_attribution(joined + ":")  # a client that writes no colon
        ) and _quote_or_end_follows(lines, index + span):
            return index + span
    fields = _header_fields(lines, index)
    if fields:
        return index + fields
    found = patterns.library_header_lines("\n".join(lines[index : index + 8]))
    if not found:
        return None
    certain = patterns.names_when_or_who(" ".join(lines[index : index + found]))
    return index + found if certain or _quote_or_end_follows(lines, index + found) else None


def _wrap_continues(lines: list[str], index: int, span: int) -> bool:
    """Whether lines[index + span - 1] may continue an attribution begun at
    lines[index] (which names a time or an address): no blank line between,
    and no line after the first begins an attribution of its own."""
    last = index + span - 1
    if last >= len(lines) or not patterns.may_start_wrapped_attribution(lines[index]):
        return False
    return all(
        lines[i].strip()
        and not QUOTED.match(lines[i])
        and (i == index or not patterns.opens_attribution(lines[i].strip()))
        for i in range(index, last + 1)
    )


def _forward_follows(lines: list[str], index: int) -> bool:
    """Whether a header field comes within the three lines after a rule."""
    return any(patterns.is_header_field(line.strip()) for line in lines[index + 1 : index + 4])


def _quote_or_end_follows(lines: list[str], index: int) -> bool:
    after = _next_written(lines, index)
    return after is None or QUOTED.match(lines[after]) is not None


def _header_fields(lines: list[str], index: int) -> int:
    """The length of an Outlook-style header block ("From:", "Sent:", ...)
    starting at lines[index]: at least two fields, one of them the sender; a
    field's value may run on to the next line ("From: Ann\n<ann@x>"), and
    Outlook's HTML, made text, leaves blank lines between the fields. A
    single "From:" line naming an address is a header too."""
    if not patterns.is_header_field(lines[index].strip()):
        return 0
    fields, end = [lines[index].strip()], index + 1
    limit = min(len(lines), index + HEADER_BLOCK_MAX_LINES)
    while end < limit:
        line = lines[end].strip()
        if patterns.is_header_field(line):
            fields.append(line)
            end += 1
        elif not line and (following := _next_written(lines, end)) is not None:
            if following >= limit or not patterns.is_header_field(lines[following].strip()):
                break
            end = following
        elif line and end + 1 < len(lines) and patterns.is_header_field(lines[end + 1].strip()):
            end += 1  # a field's value run on to this line
        else:
            break  # a line that neither is a field nor comes before one
    if any(patterns.is_from_field(line) for line in fields) and (
        len(fields) >= 2 or "@" in fields[0] or _quote_or_end_follows(lines, end)
    ):
        return end - index
    return 0
