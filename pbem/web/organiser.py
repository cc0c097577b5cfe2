"""The organiser's actions on the pages (the panel is templates/_organiser.html).

Extending a deadline, pausing and resuming are posted at once; handing a seat
to a bot, giving it to someone else and abandoning the game cannot be undone,
so their GET asks to confirm and only the confirmation's POST acts.
"""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from pbem.i18n import invitee_language
from pbem.i18n.games import game_title
from pbem.models import User
from pbem.numbers import whole_number
from pbem.services import organiser
from pbem.services.errors import BadForm, Invalid, NotFound
from pbem.services.links import take_over_url
from pbem.web.common import address_to_confirm, db, me, page_blueprint, signed_in

bp = page_blueprint("organiser")
URL = "/games/<game_id>/organiser"


def _organiser() -> User:
    user = me()
    assert user is not None  # @signed_in
    return user


def _done(game_id: str) -> ResponseReturnValue:
    """Commit and show the game with its new event."""
    db().commit()
    return redirect(url_for("play.game_page", game_id=game_id, organised=1, _anchor="organiser"))


def _position(form: Any) -> int:
    position = whole_number(form.get("position"))
    if position is None:
        raise BadForm(_("the form does not say which seat"))
    return position


@bp.route(f"{URL}/extend", methods=["POST"])
@signed_in
def extend(game_id: str) -> ResponseReturnValue:
    days = whole_number(request.form.get("days"))
    if days is None:
        raise Invalid(
            _(
                "give the extension as a whole number of days, from %(low)s to %(high)s",
                low=organiser.EXTEND_DAYS[0],
                high=organiser.EXTEND_DAYS[-1],
            )
        )
    organiser.extend(db(), _organiser(), game_id, _position(request.form), days)
    return _done(game_id)


@bp.route(f"{URL}/pause", methods=["POST"])
@signed_in
def pause(game_id: str) -> ResponseReturnValue:
    organiser.pause(db(), _organiser(), game_id)
    return _done(game_id)


@bp.route(f"{URL}/resume", methods=["POST"])
@signed_in
def resume(game_id: str) -> ResponseReturnValue:
    organiser.resume(db(), _organiser(), game_id)
    return _done(game_id)


@bp.route(f"{URL}/hand-to-bot", methods=["GET", "POST"])
@signed_in
def hand_to_bot(game_id: str) -> ResponseReturnValue:
    if request.method == "GET":
        return _confirm(game_id, "hand-to-bot")
    organiser.hand_to_bot(db(), _organiser(), game_id, _position(request.form))
    return _done(game_id)


@bp.route(f"{URL}/stand-in", methods=["POST"])
@signed_in
def stand_in(game_id: str) -> ResponseReturnValue:
    organiser.choose_stand_in(db(), _organiser(), game_id, request.form.get("level", ""))
    return _done(game_id)


@bp.route(f"{URL}/replace", methods=["GET", "POST"])
@signed_in
def replace(game_id: str) -> ResponseReturnValue:
    if request.method == "GET":
        return _confirm(game_id, "replace")
    position, email = _position(request.form), request.form.get("email", "")
    language = invitee_language(request.form.get("language"))
    try:
        organiser.replace(db(), _organiser(), game_id, position, email, take_over_url, language)
    except Invalid as exc:
        db().rollback()
        return _confirm(game_id, "replace", error=str(exc), status=422)
    return _done(game_id)


@bp.route(f"{URL}/abandon", methods=["GET", "POST"])
@signed_in
def abandon(game_id: str) -> ResponseReturnValue:
    if request.method == "GET":
        return _confirm(game_id, "abandon")
    organiser.abandon(db(), _organiser(), game_id)
    return _done(game_id)


def _confirm(
    game_id: str, action: str, error: str | None = None, status: int = 200
) -> ResponseReturnValue:
    """The page asking to confirm `action`, with what it does in words. An
    address that is no address is refused here already, before any question."""
    game = organiser.organising(db(), game_id, _organiser())
    values = request.values
    seat = None
    if action != "abandon":
        position = _position(values)
        seat = next((s for s in game.seats if s.position == position), None)
        if seat is None:
            raise NotFound(_("no such seat"))
    email = values.get("email", "").strip()
    if action == "replace" and error is None:
        email, error = address_to_confirm(values)
        status = 422 if error else status
    page = render_template(
        "organiser_confirm.html",
        game=game,
        title=game_title(game.ruleset),
        action=action,
        seat=seat,
        email=email,
        language=values.get("language"),
        error=error,
    )
    return page, status
