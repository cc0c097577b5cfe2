"""Signing in by a link sent by mail: no passwords. A link works once, for
PBEM_SIGN_IN_LINK_MINUTES; the user is created on the first request and
asked for a name on the first visit."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from babel.dates import get_day_names
from flask import Flask, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_login import LoginManager, logout_user

from pbem.accounts.browsers import SUSPENDED, browser_session_user, end_every_browser_session
from pbem.i18n import LANGUAGE_NAMES, current_language
from pbem.models import MovedMail, User
from pbem.ratelimit import Rate, address_key, limited
from pbem.services import accounts, notifications
from pbem.services.errors import Invalid
from pbem.services.links import (
    BadLink,
    absolute_url,
    calendar_url,
    read_sign_in_token,
    sign_in_token,
)
from pbem.web.common import (
    SignedIn,
    db,
    me,
    page_blueprint,
    sign_in_browser,
    sign_in_lifetime,
    sign_out_browser,
    signed_in,
    signed_in_user,
)
from pbem.web.notices import settings_page

log = logging.getLogger(__name__)
bp = page_blueprint("auth")
login_manager = LoginManager()
MOVED_CHOICES = {
    MovedMail.EACH: lazy_gettext("after every turn of another player"),
    MovedMail.NEVER: lazy_gettext("never: only when it is my turn and when the game ends"),
}


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.login_view = "auth.sign_in"
    app.config.setdefault("REMEMBER_COOKIE_DURATION", timedelta(days=365))  # Flask-Login's


@login_manager.user_loader
def _load_user(secret: str) -> SignedIn | None:
    """The session or remember cookie's id is a browser's sign-in secret:
    nobody, once that sign-in has ended."""
    user = browser_session_user(db(), secret, sign_in_lifetime())
    return SignedIn(user, secret) if user is not None else None


def safe_next(target: str | None) -> str:
    """Only a path on this site, so a link cannot send people elsewhere."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("lobby.home")


def _sign_in_address() -> str:
    return "sign-in:" + address_key(request.form.get("email", ""))


@bp.route("/sign-in", methods=["GET", "POST"])
@limited(
    Rate(
        "PBEM_SIGN_IN_LIMIT_PER_CLIENT",
        lazy_gettext("Too many sign-in links were asked for from your network"),
        methods=("POST",),
    ),
    Rate(
        "PBEM_SIGN_IN_LIMIT_PER_ADDRESS",
        lazy_gettext("Too many sign-in links were asked for this address"),
        key=_sign_in_address,
        methods=("POST",),
    ),
)
def sign_in() -> ResponseReturnValue:
    next_page = safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template("sign_in.html", next=next_page, email="")
    email = request.form.get("email", "")
    try:
        user = accounts.user_for_sign_in(db(), email)
    except Invalid as exc:
        return render_template("sign_in.html", next=next_page, email=email, error=str(exc)), 422
    if user.locked_out:
        return render_template("sign_in.html", next=next_page, email=email, error=SUSPENDED), 403
    link = absolute_url(
        "auth.follow_link", token=sign_in_token(user.id, user.signed_in_at), next=next_page
    )
    notifications.notify_sign_in(db(), user, link, current_language())
    db().commit()
    if current_app.config["PBEM_ENV"] == "embedded":
        # No mail may be set up on one machine: the console shows the link.
        log.info("\n\n    sign-in link for %s:\n    %s\n", user.email, link)
    return render_template("sign_in_sent.html", email=user.email)


def _linked_user(token: str) -> tuple[User, bool]:
    """The link's user, and whether this is their first sign-in; BadLink if
    the link is forged, expired or was used already."""
    user_id, last_sign_in = read_sign_in_token(token)
    user = db().get(User, user_id)
    if user is None or _stamp(user.signed_in_at) != _stamp(last_sign_in):
        raise BadLink(_("this sign-in link was used already; ask for a new one"))
    if user.locked_out:
        raise BadLink(str(SUSPENDED))
    return user, last_sign_in is None


def _stamp(moment: datetime | None) -> str | None:
    """Time stamps compared as the database keeps them (SQLite drops the zone)."""
    return moment.replace(tzinfo=None).isoformat() if moment else None


@bp.route("/sign-in/<token>", methods=["GET", "POST"])
def follow_link(token: str) -> ResponseReturnValue:
    """GET only asks to confirm, so a mail scanner opening the link uses nothing up."""
    next_page = safe_next(request.values.get("next"))
    try:
        user, first = _linked_user(token)
    except BadLink as exc:
        return render_template("bad_link.html", message=str(exc)), 400
    if request.method == "GET":
        return render_template("sign_in_confirm.html", email=user.email, next=next_page)
    if not accounts.claim_sign_in(db(), user.id, user.signed_in_at):
        db().rollback()
        message = _("this sign-in link was used already")
        return render_template("bad_link.html", message=message), 400
    sign_in_browser(user)
    if first:
        return redirect(url_for("auth.welcome", next=next_page))
    return redirect(next_page)


@bp.route("/welcome", methods=["GET", "POST"])
@signed_in
def welcome() -> ResponseReturnValue:
    """The settings, asked on the first visit; saving goes on to the page asked for."""
    return _settings_form(first_visit=True)


@bp.route("/settings", methods=["GET", "POST"])
@signed_in
def settings() -> ResponseReturnValue:
    """Name, time zone, language, which mails to get and when, changeable any time."""
    return _settings_form(first_visit=False)


def _zones_for(own: str) -> list[str]:
    """The places offered, and the user's own zone among them even when it
    is an old alias, so saving the form keeps it."""
    offered = accounts.offered_time_zones()
    return offered if own in offered else [own, *offered]


def _settings_form(first_visit: bool) -> ResponseReturnValue:
    user = me()
    assert user is not None
    next_page = safe_next(request.values.get("next"))
    page = {
        "user": user,
        "zones": _zones_for(user.time_zone),
        "languages": LANGUAGE_NAMES,
        "moved_choices": MOVED_CHOICES,
        "digest_hours": accounts.DIGEST_HOURS,
        "weekdays": weekday_names(),
        "calendar_url": calendar_url(user),
        "first_visit": first_visit,
        "next": next_page,
        "saved": request.args.get("saved") == "1",
        "new_calendar": request.args.get("calendar") == "new",
        **settings_page(user),
    }
    if request.method == "GET":
        return render_template("settings.html", **page)
    try:
        accounts.update_settings(
            db(),
            user,
            name=request.form.get("name", ""),
            time_zone=request.form.get("time_zone", "UTC"),
            language=request.form.get("language", accounts.KEEP),
            moved_mail=request.form.get("moved_mail", user.moved_mail),
            **_mail_times(request.form),
        )
    except Invalid as exc:
        return render_template("settings.html", **page, form=request.form, error=str(exc)), 422
    db().commit()
    if first_visit:
        return redirect(next_page)
    return redirect(url_for("auth.settings", saved=1))


def _mail_times(form: Mapping[str, str]) -> dict[str, Any]:
    """Quiet hours, reminders and the digests as the form has them; a group
    the form does not hold stays as it is. An unticked box sends nothing, so
    quiet hours are off when the times are there but the box is not."""
    values: dict[str, Any] = {}
    if "quiet_start" in form:
        quiet = f"{form['quiet_start']}-{form.get('quiet_end', '')}"
        values["quiet_hours"] = quiet if form.get("quiet") else None
    if "reminder_hours" in form:
        values["reminder_hours"] = _whole_number(
            form["reminder_hours"], _("the hours before a deadline for a reminder")
        )
    if "turn_mail" in form:
        digest = form["turn_mail"] == "digest"
        hour = form.get("digest_hour", "")
        values["digest_hour"] = _whole_number(hour, _("the daily mail's hour")) if digest else None
    if "league_digest_day" in form:  # empty: off
        values["league_digest_day"] = _whole_number(
            form["league_digest_day"], _("the weekly mail's day")
        )
        hour = form.get("league_digest_hour", "")
        values["league_digest_hour"] = _whole_number(hour, _("the weekly league mail's hour"))
    return values


def _whole_number(text: str, what: str) -> int | None:
    """An empty field is None (off); `what` names the field, as the sentence
    of the refusal starts with it."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise Invalid(
            _("%(what)s must be a whole number, not %(text)s", what=what, text=repr(text))
        ) from None


def weekday_names() -> list[str]:
    """Monday to Sunday in the reader's language: the weekly mail's day by its number."""
    names = get_day_names("wide", locale=current_language())
    return [names[day] for day in range(7)]


@bp.route("/settings/calendar", methods=["POST"])
@signed_in
def new_calendar_address() -> ResponseReturnValue:
    """A new secret for the calendar feed, for someone who shared the old one."""
    user = me()
    assert user is not None
    accounts.new_calendar_token(user)
    db().commit()
    return redirect(url_for("auth.settings", calendar="new"))


@bp.route("/sign-out", methods=["POST"])
def sign_out() -> ResponseReturnValue:
    sign_out_browser()
    return redirect(url_for("auth.sign_in"))


@bp.route("/settings/sign-out-everywhere", methods=["POST"])
@signed_in
def sign_out_everywhere() -> ResponseReturnValue:
    """For a lost phone or a shared computer: every browser's sign-in ends,
    this one's too, and every copy of their cookies with them."""
    end_every_browser_session(db(), signed_in_user().id)
    db().commit()
    page = render_template("signed_out_everywhere.html")  # still in the reader's language
    logout_user()
    return page
