"""A mail being written, paragraph by paragraph, as text and as HTML: what
compose.py (mails about games and accounts) and league_text.py (league
mails) both fill in."""

from __future__ import annotations

import html
from email import policy
from email.header import Header
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy
from email.utils import make_msgid

import css_inline
from flask_babel import gettext as _

STYLE = """
body { font-family: sans-serif; color: #222; }
pre { font-family: monospace; font-size: 12px; background: #f6f6f6; padding: 8px; }
.moves li { font-family: monospace; }
.note { color: #666; font-size: 12px; }
"""


class _Subject(UnstructuredHeader, BaseHeader):
    """A subject folded without losing a space: Python's folder (before
    CPython gh-144156) puts the fold at the space between two encoded words,
    and readers drop the whitespace between encoded words (RFC 2047), so
    "Kolo 2 – Hra 3" reached Czech readers as "Kolo 2– Hra 3". The older
    encoder keeps every space inside the encoded words."""

    def fold(self, *, policy: Policy) -> str:
        text = str(self)
        if text.isascii() or getattr(policy, "utf8", False):
            return super().fold(policy=policy)
        encoded = Header(text, "utf-8", header_name=self.name).encode(linesep=policy.linesep)
        return f"{self.name}: {encoded}{policy.linesep}"


_HEADERS = HeaderRegistry()
_HEADERS.map_to_type("subject", _Subject)
# Every message pbem writes, and each of its parts, is written with this policy.
MAIL_POLICY = policy.default.clone(header_factory=_HEADERS)


class Mail:
    """A message being written: text paragraphs and their HTML, plus headers."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.html: list[str] = []
        # The board and its side panel, shown inline (pbem.render.render_board_and_panel).
        self.board: tuple[bytes, bytes] | None = None
        self.png_url = ""  # the whole picture at full size, on the site
        # The pictures' Content-IDs are of the mail's own domain: the
        # machine's name (often "localhost") says nothing of the sender.
        self.domain = "localhost"

    def para(self, text: str) -> None:
        self.text.append(text)
        self.html.append(f"<p>{html.escape(text).replace(chr(10), '<br>')}</p>")

    def listing(self, title: str, lines: list[str], css_class: str = "moves") -> None:
        self.text.append("\n".join([title, *(f"  {line}" for line in lines)]))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        self.html.append(f"<p>{html.escape(title)}</p><ul class='{css_class}'>{items}</ul>")

    def pre(self, text: str) -> None:
        self.text.append(text)
        self.html.append(f"<pre>{html.escape(text)}</pre>")

    def link(self, title: str, url: str) -> None:
        self.text.append(_("%(title)s: %(url)s", title=title, url=url))
        self.html.append(f"<p><a href='{html.escape(url)}'>{html.escape(title)}</a></p>")

    def _pictures(self) -> list[tuple[str, tuple[str, str], bytes]]:
        """The board and its side panel as two inline pictures, each a link
        to the whole picture at full size: the board fills the reader's
        column (at most 600 px), the panel keeps its own size so that its
        words stay readable."""
        if self.board is None:
            return []
        board, panel = self.board
        link = html.escape(self.png_url)
        shown = []
        for png, name, alt, style in (
            (board, "board.png", _("the board"), "max-width:600px;width:100%;height:auto"),
            (panel, "panel.png", _("the players, the score and the last turn"), "max-width:100%"),
        ):
            cid = make_msgid(name.removesuffix(".png"), domain=self.domain)
            tag = (
                f"<p><a href='{link}'><img src='cid:{cid[1:-1]}'"
                f" alt='{html.escape(alt, quote=True)}' style='{style}'></a></p>"
            )
            shown.append((tag, (cid, name), png))
        return shown

    def message(self, subject: str) -> EmailMessage:
        message = EmailMessage(policy=MAIL_POLICY)
        message["Subject"] = subject
        message.set_content("\n\n".join(self.text) + "\n")
        pictures = self._pictures()
        body = "".join(picture[0] for picture in pictures) + "".join(self.html)
        page = f"<html><head><style>{STYLE}</style></head><body>{body}</body></html>"
        message.add_alternative(css_inline.inline(page), subtype="html")
        html_part = list(message.iter_parts())[1]
        for _tag, (cid, name), png in pictures:
            html_part.add_related(png, "image", "png", cid=cid, filename=name, disposition="inline")
        return message
