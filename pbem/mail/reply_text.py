"""The new text of a reply: what the player wrote above (or below) the quote.

Plain text is preferred; an HTML-only mail is turned into text with its
quoted blocks left out. Quoted lines ('>') and the attribution line before
them go, and mail-parser-reply cuts signatures and Outlook-style quoted
originals, so top- and bottom-posted replies give the same commands.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from html.parser import HTMLParser

from mailparser_reply import EmailReplyParser

QUOTED = re.compile(r"^\s*>")
LANGUAGES = ["en", "de", "fr"]


class _HtmlText(HTMLParser):
    """Text of an HTML body without <blockquote> (the quote) and invisible parts."""

    SKIP = frozenset({"blockquote", "style", "script", "head"})
    BREAKS = frozenset({"p", "div", "li", "tr", "pre", "h1", "h2", "h3"})
    VOID = frozenset({"br", "img", "hr", "meta", "input", "link", "wbr", "col", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0  # depth inside a skipped element
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:  # type: ignore[type-arg]
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


def _is_quote_div(attrs: list) -> bool:  # type: ignore[type-arg]
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


def _decoded(part: EmailMessage) -> str:
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
        return (part.get_payload(decode=True) or b"").decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableBody("its text is in an unknown charset") from None


def new_text(body: str) -> str:
    """Only the lines the author wrote in this reply."""
    unquoted = "\n".join(line for line in body.splitlines() if not QUOTED.match(line))
    parsed = EmailReplyParser(languages=LANGUAGES).read(unquoted)
    for reply in parsed.replies:
        if reply.body.strip():
            return reply.body
    return ""
