"""The server-rendered pages: sign-in by mailed link, the lobby, the game page
with preview and history, and the spectator view. Every form carries a CSRF
token; the token-authenticated /api is exempt."""

from __future__ import annotations

from flask import Flask, current_app
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import Conflict

from pbem.db import is_unique_violation, request_session
from pbem.i18n import LANGUAGE_NAMES, current_language
from pbem.i18n.games import game_title, said_move
from pbem.i18n.notation_pages import notation_path
from pbem.leagues.seasons import shown_title
from pbem.render.colours import css_colour
from pbem.services.bots import LEVEL_WORDS
from pbem.services.chat import may_remove as may_remove_chat
from pbem.services.events import event_text
from pbem.services.game_organisers import organises
from pbem.services.names import player_name, shown_name
from pbem.services.time_control import time_control_words
from pbem.web import (
    account,
    admin,
    auth,
    board,
    calendar_feed,
    chat,
    clock,
    leagues,
    lobby,
    locale_format,
    notices,
    organiser,
    play,
    profiles,
    push,
    records,
    spectate,
    vacation,
)
from pbem.web import help as help_page
from pbem.web.common import error_page, refusal_reason, site

csrf = CSRFProtect()
# Blueprints whose callers prove themselves with a bearer token, not a session.
TOKEN_AUTHENTICATED = ("api", "mail_inbound")


def init_app(app: Flask) -> None:
    """Call after the API is registered, so its blueprints can be exempted."""
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # valid as long as the session
    csrf.init_app(app)
    for name, blueprint in app.blueprints.items():
        if name.startswith(TOKEN_AUTHENTICATED):
            csrf.exempt(blueprint)
    auth.init_app(app)
    app.register_blueprint(site)
    for module in (
        auth,
        account,
        admin,
        lobby,
        play,
        chat,
        spectate,
        records,
        board,
        organiser,
        vacation,
        calendar_feed,
        profiles,
        leagues,
        help_page,
        notices,
        push,
    ):
        app.register_blueprint(module.bp)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(IntegrityError, _lost_race)
    app.jinja_env.filters["css_colour"] = css_colour  # seat dots in the pictures' colours
    app.jinja_env.filters["time_control"] = time_control_words
    app.jinja_env.filters["shown_name"] = shown_name  # two Anns at one table differ
    app.jinja_env.filters["player_name"] = player_name  # a deleted account: a former player
    app.jinja_env.globals["record_url"] = records.record_url
    app.jinja_env.globals["organises"] = organises
    app.jinja_env.globals["may_remove_chat"] = may_remove_chat
    app.jinja_env.globals["game_notice_choice"] = notices.game_choice
    app.jinja_env.globals["bot_levels"] = LEVEL_WORDS  # stand-in levels' choices
    app.jinja_env.globals["invitee_languages"] = LANGUAGE_NAMES  # an invitee's mails'
    clock.init_app(app)
    locale_format.init_app(app)
    app.jinja_env.filters["shown_title"] = shown_title
    app.jinja_env.filters["event_text"] = event_text
    app.jinja_env.filters["said"] = _said
    app.jinja_env.filters["refusal_reason"] = refusal_reason
    app.jinja_env.globals["game_title"] = game_title
    app.jinja_env.globals["notation_path"] = notation_path


def _lost_race(error: IntegrityError) -> ResponseReturnValue:
    """Two requests made the same row at once and this one lost on a unique
    constraint: a conflict to retry (409, an error page or the API's JSON),
    not a server error. Any other integrity error is a bug and stays a 500."""
    if not is_unique_violation(error):
        raise error
    request_session().rollback()
    conflict = Conflict(_("Someone did the same at the same moment. Look again and retry."))
    return current_app.handle_user_exception(conflict)


def _said(text: str, ruleset: str) -> str:
    """A move's text in the page's words (the `said` filter), as mails write it."""
    return said_move(ruleset, text, current_language())


def _csrf_error(_error: CSRFError) -> ResponseReturnValue:
    message = _("The form had expired or came from elsewhere. Reload the page and try again.")
    return error_page(_("Form refused"), message, 400)
