"""Languages: pages, mails and rule messages in English, French and Czech.

Flask-Babel translates with gettext catalogues kept in the repository as
`.po` files, one folder per area (`pbem/translations/<area>/`) so pages,
mails and rule messages each have their own file to translate; at start-up
they are compiled into the instance folder and merged into one domain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, has_app_context, has_request_context, request
from flask_babel import Babel, force_locale, get_locale

from pbem.i18n.catalogues import AREAS, SOURCE, compile_catalogues
from pbem.i18n.games import game_title
from pbem.i18n.options import chosen_options, option_help
from pbem.i18n.rules import translate_word
from pbem.models import User

LANGUAGES = ("en", "fr", "cs")
DEFAULT_LANGUAGE = "en"
# Each language named in itself: the settings list shows them so.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "cs": "Čeština"}
READER = "pbem.i18n.reader"


def init_app(app: Flask, reader: Callable[[], User | None]) -> None:
    """`reader`: the signed-in user of the request, or None (the pages know
    who signed in; this package need not)."""
    app.extensions[READER] = reader
    target = Path(app.instance_path) / "translations"
    compile_catalogues(SOURCE, target)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = ";".join(str(target / area) for area in AREAS)
    app.config["BABEL_DEFAULT_LOCALE"] = DEFAULT_LANGUAGE
    Babel(app, locale_selector=page_language)
    app.context_processor(lambda: {"page_language": current_language()})
    app.jinja_env.globals.update(
        game_title=game_title,
        option_help=option_help,
        chosen_options=chosen_options,
        game_word=game_word,
    )


def page_language() -> str:
    """The signed-in reader's chosen language, else the browser's best match
    (Accept-Language), else English."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    user = current_app.extensions[READER]()
    if user is not None and user.language:
        return user.language
    return browser_language() or DEFAULT_LANGUAGE


def browser_language() -> str | None:
    """The language the visitor's browser asks for, among ours."""
    if not has_request_context():
        return None
    return request.accept_languages.best_match(LANGUAGES)


def current_language() -> str:
    """The language being written in now: the page's, the mail's
    (`in_language`), or English outside any app."""
    if not has_app_context():
        return DEFAULT_LANGUAGE
    return str(get_locale() or DEFAULT_LANGUAGE)


def invitee_language(chosen: str | None) -> str:
    """The language an inviter chose for an invitee's mails, else the one of
    the inviter's page: whoever invites in French most likely invites
    someone who reads it (pbem.services.accounts.invited_user keeps it)."""
    return chosen or current_language()


def game_word(word: str) -> str:
    """A game's own word (how a game ended, a terrain) as the current
    language's rulebook says it."""
    return translate_word(word, current_language())


def mail_language(language: str | None) -> str:
    """A recipient's language for mail: the one they chose, else English."""
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


@contextmanager
def in_language(language: str | None) -> Iterator[None]:
    """Translate in this language meanwhile (a mail to its recipient, a
    task without a request); needs an app context."""
    with force_locale(mail_language(language)):
        yield
