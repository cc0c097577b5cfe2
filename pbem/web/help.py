"""`/help`: how to play by mail, in the reader's language.

The text is `pbem/help/<language>.md`, the very files `docs/mail/` links to,
so the page and the docs never say different things; it ships with the
package. `?lang=fr|cs|en` names a language (a mail's link names the
recipient's), else the page's language is taken.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown
from flask import render_template, request
from markupsafe import Markup

from pbem.i18n import LANGUAGE_NAMES, LANGUAGES, in_language, page_language
from pbem.web.common import page_blueprint

bp = page_blueprint("help")

HELP_TEXTS = Path(__file__).resolve().parent.parent / "help"


@bp.route("/help")
def help_page() -> str:
    asked = request.args.get("lang")
    language = asked if asked in LANGUAGES else page_language()
    with in_language(language):
        return render_template(
            "help.html", text=help_text(language), language=language, languages=LANGUAGE_NAMES
        )


@cache
def help_text(language: str) -> Markup:
    """The help of a language as HTML; our own files, so the markup is trusted."""
    source = (HELP_TEXTS / f"{language}.md").read_text(encoding="utf-8")
    return Markup(markdown.markdown(source, extensions=["tables"]))
