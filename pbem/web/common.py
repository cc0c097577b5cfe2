"""What every page module shares: its blueprint, the signed-in user, and
turning a service's refusal into a page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from functools import wraps
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_login import UserMixin, current_user, login_user, logout_user
from sqlalchemy.orm import Session
from werkzeug.exceptions import HTTPException, InternalServerError

from pbem.accounts.browsers import SUSPENDED, end_browser_session, start_browser_session
from pbem.db import lock_user, request_session
from pbem.i18n import browser_language, in_language, mail_language, page_language
from pbem.i18n.rules import describe_refusal
from pbem.models import Submission, User
from pbem.services.accounts import normalise_email
from pbem.services.errors import BadForm, Conflict, Forbidden, Invalid, NotFound, ServiceError
from pbem.services.links import BadLink

STATUS_FOR = {BadForm: 400, Forbidden: 403, NotFound: 404, Conflict: 409, Invalid: 422}
# The HTTP errors the pages show, titled and (unless the error says more
# than Werkzeug's standard words) explained in the reader's language.
HTTP_ERRORS = {
    404: (lazy_gettext("Not found"), lazy_gettext("There is no such page here.")),
    405: (lazy_gettext("Not allowed"), lazy_gettext("This page cannot be used that way.")),
    413: (lazy_gettext("Too large"), lazy_gettext("What was sent is too large.")),
    422: (lazy_gettext("Not possible"), lazy_gettext("What was sent cannot be used.")),
    429: (
        lazy_gettext("Too many requests"),
        lazy_gettext("Too many requests in a short time: wait a moment and try again."),
    ),
}


class SignedIn(UserMixin):  # type: ignore[misc]  # flask-login has no types: UserMixin is Any
    """Flask-Login's idea of a user, wrapping ours for the current request.
    Its id, which the session and remember cookies keep, is this browser's
    sign-in secret (pbem.accounts.browsers), never the user's id: a cookie
    then signs in only while that sign-in lasts."""

    def __init__(self, user: User, secret: str) -> None:
        self.user = user
        self.id = secret


def sign_in_lifetime() -> timedelta:
    """As long as the remember cookie: no sign-in outlives its cookie."""
    lifetime: timedelta = current_app.config["REMEMBER_COOKIE_DURATION"]
    return lifetime


def sign_in_browser(user: User) -> None:
    """Sign this browser in as `user`, with a sign-in of its own; commits.
    Forbidden if the account is suspended or deleted."""
    secret = start_browser_session(db(), user.id, sign_in_lifetime())
    db().commit()
    login_user(SignedIn(user, secret), remember=True)


def open_account(user: User) -> User:
    """The account a mailed link signs in or seats, locked until the request
    commits, as a suspension locks it, so none starts in between; BadLink
    while it is suspended: a link mailed before signs in and seats nobody."""
    user = lock_user(db(), user.id)
    if user.locked_out:
        raise BadLink(str(SUSPENDED))
    return user


def address_to_confirm(values: Mapping[str, str]) -> tuple[str, str | None]:
    """The address a confirmation page asks about (a replacement's), and why
    it is no address if it is none: that is said before any question."""
    email = values.get("email", "").strip()
    try:
        return normalise_email(email), None
    except ServiceError as exc:
        return email, str(exc)


def sign_out_browser() -> None:
    """This browser's sign-in ends for good: a copy of its cookies made
    before signs in nobody. The account's other browsers stay signed in."""
    if current_user.is_authenticated:
        end_browser_session(db(), current_user.get_id())
        db().commit()
    logout_user()


# The templates and the style sheet, shared by the page blueprints.
site = Blueprint(
    "site", __name__, template_folder="templates", static_folder="static", static_url_path="/assets"
)


@site.route("/favicon.ico")
def favicon() -> ResponseReturnValue:
    """Where browsers and feed readers look without reading the page's link."""
    return site.send_static_file("favicon.ico")


def page_blueprint(name: str) -> Blueprint:
    bp = Blueprint(name, __name__)
    bp.register_error_handler(ServiceError, service_error)
    for code in HTTP_ERRORS:
        bp.register_error_handler(code, http_error)
    bp.register_error_handler(InternalServerError, server_error)
    return bp


def service_error(error: ServiceError) -> ResponseReturnValue:
    title = _("Not found") if isinstance(error, NotFound) else _("Not possible")
    return error_page(title, str(error), STATUS_FOR.get(type(error), 400))


def http_error(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    title, standard = HTTP_ERRORS.get(code, (error.name, error.description))
    description = error.description or ""
    if description == type(error).description:
        description = str(standard)
    return error_page(str(title), description, code)


def server_error(_error: InternalServerError) -> ResponseReturnValue:
    """A page of the site for a failure (Flask has logged it), in the
    browser's language: the reader's choice and menu would be read from the
    database, which may be what failed. Drawn by Jinja alone: Flask's
    context processors would load the signed-in user."""
    language = mail_language(browser_language())
    with in_language(language):
        page = current_app.jinja_env.get_template("server_error.html")
        return page.render(page_language=language), 500


def error_page(title: str, message: str, status: int) -> ResponseReturnValue:
    return render_template("error.html", title=title, message=message), status


def refusal_reason(submission: Submission) -> str | None:
    """Why a turn was refused, in the reader's language (English for rows
    kept before refusals kept their ids)."""
    if submission.reason is None:
        return None
    return describe_refusal(submission.refusal, submission.reason, page_language())


def db() -> Session:
    return request_session()


def me() -> User | None:
    """The signed-in user, or None."""
    return current_user.user if current_user.is_authenticated else None


def signed_in_user() -> User:
    """The signed-in user, on a page behind `signed_in`."""
    user = me()
    assert user is not None  # signed_in sent anybody else to sign in
    return user


def signed_in(view: Callable[..., Any]) -> Callable[..., Any]:
    """Pages for signed-in users; others are sent to sign in and brought back."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if me() is None:
            return sign_in_first()
        return view(*args, **kwargs)

    return wrapper


def sign_in_first() -> ResponseReturnValue:
    """Off to sign in, and back to this page afterwards."""
    return redirect(url_for("auth.sign_in", next=request.full_path.rstrip("?")))
