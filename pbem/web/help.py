"""`/help`: how to play by mail, and `/help/<game>`: how to write that game's
moves, in the reader's language.

The texts are `pbem/help/<language>.md` and `pbem/help/notation/<game>[.<language>].md`,
the very files `docs/mail/` and `docs/notation/` link to, so the pages and
the docs never say different things; they ship with the package. Their links
to one another are written as links between the docs' files and served as
links between the pages. `?lang=fr|cs|en` names a language (a mail's link
names the recipient's), else the page's language is taken.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from flask import abort, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from pbem.i18n import LANGUAGE_NAMES, LANGUAGES, in_language, page_language
from pbem.i18n.games import game_title
from pbem.i18n.notation_pages import notation_file, notation_games
from pbem.web.common import page_blueprint

bp = page_blueprint("help")

HELP_TEXTS = Path(__file__).resolve().parent.parent / "help"
# A link from one help file to a notation file: "../notation/taluva.cs.md", "taluva.md".
NOTATION_LINK = re.compile(
    r"\]\((?:\.\./notation/)?(?P<game>[a-z]+)(?:\.(?P<language>[a-z]{2}))?\.md\)"
)


@bp.route("/help")
def help_page() -> str:
    language = _asked_language()
    with in_language(language):
        text = _page_text(HELP_TEXTS / f"{language}.md")
        return _render(_("How to play by mail"), text, language)


@bp.route("/help/<game>")
def notation_page(game: str) -> str:
    """404 for a game we have no notation of."""
    if game not in notation_games():
        abort(404)
    language = _asked_language()
    with in_language(language):
        title = _("How to write moves: %(game)s", game=game_title(game))
        return _render(title, _page_text(notation_file(game, language)), language)


def _asked_language() -> str:
    asked = request.args.get("lang")
    return asked if asked in LANGUAGES else page_language()


def _render(title: str, text: Markup, language: str) -> str:
    return render_template(
        "help.html", title=title, text=text, language=language, languages=LANGUAGE_NAMES
    )


def _page_text(path: Path) -> Markup:
    """The file as HTML, its links to notation files as links to their pages;
    our own files, so the markup is trusted."""
    source = NOTATION_LINK.sub(_page_link, _source(path))
    return Markup(markdown.markdown(source, extensions=["tables"]))


def _page_link(found: re.Match[str]) -> str:
    url = url_for("help.notation_page", game=found["game"], lang=found["language"] or "en")
    return f"]({url})"


@cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")
