"""A player's deadlines as an iCalendar feed at a secret address, for the
calendar app they already look at. The address is the secret (calendar apps
cannot sign in), so a wrong one is simply not found, and the settings page
can replace it. It is written in the player's chosen language, as a mail is."""

from __future__ import annotations

from flask import Response, abort, current_app
from flask_babel import gettext as _
from icalendar import Calendar, Event
from sqlalchemy import select

from pbem.i18n import in_language
from pbem.leagues.seasons import named
from pbem.models import Seat, User, utcnow
from pbem.services.game_lists import seats_to_act
from pbem.services.links import absolute_url
from pbem.services.time_control import TIMEOUT_WORDS
from pbem.web.common import db, page_blueprint

bp = page_blueprint("calendar")


@bp.route("/calendar/<token>.ics")
def feed(token: str) -> Response:
    user = db().scalar(select(User).where(User.calendar_token == token))
    if user is None or user.locked_out:  # a suspended account's feed is shut too
        abort(404)
    calendar = Calendar()
    calendar.add("prodid", "-//pbem//deadlines//EN")
    calendar.add("version", "2.0")
    with in_language(user.language):
        calendar.add("x-wr-calname", _("pbem: your moves"))
        for seat in seats_to_act(db(), user):
            if seat.timeout_at is not None:
                calendar.add_component(_event(seat))
    response = Response(calendar.to_ical(), mimetype="text/calendar")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _event(seat: Seat) -> Event:
    """One decision owed; its UID stays the same while that decision is open,
    so a calendar moves the event when the deadline moves."""
    game = seat.game
    assert seat.asked_at is not None  # only seats asked to act are in the feed
    domain = current_app.config["PBEM_MAIL_DOMAIN"]
    event = Event()
    event.add("uid", f"pbem-seat-{seat.id}-{int(seat.asked_at.timestamp())}@{domain}")
    event.add("dtstamp", utcnow())
    event.add("dtstart", seat.timeout_at)
    event.add("summary", _("Your move: %(game)s", game=named(game)))
    event.add("url", absolute_url("play.game_page", game_id=game.public_id))
    then = str(TIMEOUT_WORDS[game.on_timeout])
    event.add("description", _("If you have not moved by then, %(then)s.", then=then))
    return event
