"""The vacation page: the days left this year, starting a vacation (every
clock of the player stops) and coming back early."""

from __future__ import annotations

from flask import current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from pbem.i18n.command_words import own_word
from pbem.i18n.times import local_time
from pbem.models import User, utcnow
from pbem.numbers import whole_number
from pbem.services import vacation
from pbem.services.errors import ServiceError
from pbem.web.common import STATUS_FOR, db, me, page_blueprint, signed_in

bp = page_blueprint("vacation")


def _reader() -> User:
    user = me()
    assert user is not None  # @signed_in
    return user


@bp.route("/vacation")
@signed_in
def page() -> ResponseReturnValue:
    return _page()


def _page(error: str | None = None, days: str = "", status: int = 200) -> ResponseReturnValue:
    user, now = _reader(), utcnow()
    state = vacation.status(db(), user, current_app.config["PBEM_VACATION_DAYS"], now)
    page = render_template(
        "vacation.html",
        state=state,
        until=local_time(state.ends_at, user.time_zone, now) if state.ends_at else None,
        error=error,
        days=days,
        started=request.args.get("started") == "1",
        back=request.args.get("back") == "1",
        start_word=own_word("vacation"),
        stop_word=own_word("back"),
    )
    return page, status


@bp.route("/vacation", methods=["POST"])
@signed_in
def start() -> ResponseReturnValue:
    raw = request.form.get("days", "").strip()
    days = whole_number(raw)
    if days is None:
        message = _("Nothing was changed: %(given)s is not a number of days.", given=repr(raw))
        return _page(message, raw, 422)
    try:
        vacation.start(db(), _reader(), days, current_app.config["PBEM_VACATION_DAYS"], utcnow())
    except ServiceError as exc:
        db().rollback()
        return _page(_refusal(exc), raw, STATUS_FOR.get(type(exc), 400))
    db().commit()
    return redirect(url_for("vacation.page", started=1))


def _refusal(error: ServiceError) -> str:
    return _("Nothing was changed: %(reason)s.", reason=error)


@bp.route("/vacation/end", methods=["POST"])
@signed_in
def end() -> ResponseReturnValue:
    try:
        vacation.end(db(), _reader(), utcnow())
    except ServiceError as exc:
        db().rollback()
        return _page(_refusal(exc), status=STATUS_FOR.get(type(exc), 400))
    db().commit()
    return redirect(url_for("vacation.page", back=1))
