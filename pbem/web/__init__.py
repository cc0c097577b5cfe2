"""The server-rendered pages: sign-in by mailed link, the lobby, the game page
with preview and history, and the spectator view. Every form carries a CSRF
token; the token-authenticated /api is exempt."""

from __future__ import annotations

from flask import Flask
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect

from pbem.clock.time_control import time_control_words
from pbem.render.colours import css_colour
from pbem.services.game_organisers import organises
from pbem.web.common import error_page, site

csrf = CSRFProtect()
# Blueprints whose callers prove themselves with a bearer token, not a session.
TOKEN_AUTHENTICATED = ("api", "mail_inbound")


def init_app(app: Flask) -> None:
    """Call after the API is registered, so its blueprints can be exempted."""
    from pbem.i18n.games import game_title
    from pbem.leagues.seasons import shown_title
    from pbem.notation_pages import notation_path
    from pbem.services.events import event_text
    from pbem.web import (
        auth,
        board,
        calendar_feed,
        chat,
        clock,
        leagues,
        lobby,
        locale_format,
        organiser,
        play,
        profiles,
        records,
        spectate,
        vacation,
    )
    from pbem.web import help as help_page

    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # valid as long as the session
    csrf.init_app(app)
    for name, blueprint in app.blueprints.items():
        if name.startswith(TOKEN_AUTHENTICATED):
            csrf.exempt(blueprint)
    auth.init_app(app)
    app.register_blueprint(site)
    for module in (
        auth,
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
    ):
        app.register_blueprint(module.bp)
    app.register_error_handler(CSRFError, _csrf_error)
    app.jinja_env.filters["css_colour"] = css_colour  # seat dots in the pictures' colours
    app.jinja_env.filters["time_control"] = time_control_words
    app.jinja_env.globals["record_url"] = records.record_url
    app.jinja_env.globals["organises"] = organises
    clock.init_app(app)
    locale_format.init_app(app)
    app.jinja_env.filters["shown_title"] = shown_title
    app.jinja_env.filters["event_text"] = event_text
    app.jinja_env.globals["game_title"] = game_title
    app.jinja_env.globals["notation_path"] = notation_path


def _csrf_error(_error: CSRFError):  # type: ignore[no-untyped-def]
    message = _("The form had expired or came from elsewhere. Reload the page and try again.")
    return error_page(_("Form refused"), message, 400)
