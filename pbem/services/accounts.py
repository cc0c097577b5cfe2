"""Users and their API tokens."""

from __future__ import annotations

import enum
import hashlib
import re
import secrets
from datetime import datetime, time, timedelta
from functools import cache
from zoneinfo import available_timezones

from flask_babel import gettext as _
from sqlalchemy import select, update
from sqlalchemy.orm import Session, joinedload

from pbem.db import rows_changed
from pbem.i18n import LANGUAGES
from pbem.models import (
    ApiToken,
    Game,
    GameStatus,
    MovedMail,
    Season,
    SeasonEntrant,
    Seat,
    User,
    seat_token,
    utcnow,
)
from pbem.services import notifications
from pbem.services.calendar import in_quiet_hours, parse_clock_time
from pbem.services.deadlines import MAX_REMINDER_HOURS, recompute_user
from pbem.services.errors import Conflict, Invalid
from pbem.services.names import NAME_LENGTH, checked_name

TOKEN_PREFIX = "pbem_"
# A token's last use is kept to the minute: written on every request, it
# would make each read of the API a write and a commit too.
TOKEN_USE_PRECISION = timedelta(minutes=1)
REMINDER_HOURS = range(1, MAX_REMINDER_HOURS + 1)
DIGEST_HOURS = range(24)
WEEKDAY_NUMBERS = range(7)  # the weekly league digest's day, 0 Monday .. 6 Sunday
# No spaces or control characters: the address goes into the To header.
EMAIL = re.compile(r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")


def normalise_email(email: str) -> str:
    email = email.strip().lower()
    if not EMAIL.match(email):
        raise Invalid(_("%(email)s is not an e-mail address", email=repr(email)))
    return email


def create_user(
    session: Session, email: str, name: str, time_zone: str = "UTC", language: str | None = None
) -> User:
    """`language` None: not chosen yet (pages follow the browser)."""
    email = normalise_email(email)
    _check_time_zone(time_zone)
    if language is not None:
        _check_language(language)
    if session.scalar(select(User.id).where(User.email == email)) is not None:
        raise Conflict(_("there is already a user with e-mail %(email)s", email=email))
    user = User(
        email=email,
        name=checked_name(name.strip() or email.split("@")[0][:NAME_LENGTH]),
        time_zone=time_zone,
        language=language,
    )
    session.add(user)
    session.flush()
    return user


@cache
def time_zones() -> frozenset[str]:
    """The zones the system knows; read once, since listing them walks the
    tz database's files (it was a twentieth of the web tests' time)."""
    return frozenset(available_timezones())


# The areas of the tz database's place names (Europe/Prague); the rest are
# aliases kept for old systems (US/Eastern, Japan) or no place at all
# (Factory, localtime, posixrules), still accepted but not offered.
PLACE_AREAS = (
    "Africa",
    "America",
    "Antarctica",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)


@cache
def offered_time_zones() -> list[str]:
    """The zones a person chooses from: UTC and the places, in order."""
    places = (zone for zone in time_zones() if zone.split("/", 1)[0] in PLACE_AREAS)
    return ["UTC", *sorted(places)]


def _check_time_zone(time_zone: str) -> None:
    if time_zone not in time_zones():
        raise Invalid(
            _("unknown time zone %(zone)s (use names like Europe/Berlin)", zone=repr(time_zone))
        )


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise Invalid(
            _(
                "language must be one of %(choices)s, not %(language)s",
                choices=", ".join(LANGUAGES),
                language=repr(language),
            )
        )


class Keep(enum.Enum):
    """Leaves a setting as it is, where None has a meaning of its own (off)."""

    KEEP = "keep"


KEEP = Keep.KEEP


def update_settings(
    session: Session,
    user: User,
    *,
    name: str | None = None,
    time_zone: str | None = None,
    language: str | Keep | None = KEEP,
    moved_mail: str | None = None,
    quiet_hours: str | Keep | None = KEEP,
    reminder_hours: int | Keep | None = KEEP,
    digest_hour: int | Keep | None = KEEP,
    league_digest_day: int | Keep | None = KEEP,
    league_digest_hour: int | None = None,
) -> None:
    """Change the settings given (None keeps name, zone and moved mail, KEEP
    the others, for which None means off, or for the language, not chosen);
    nothing changes if one is invalid. A new zone
    or new quiet hours move the user's deadlines; a new name goes to the
    seats and season places they hold in games and seasons under way."""
    if name is not None:
        name = checked_name(name)
    if time_zone is not None:
        _check_time_zone(time_zone)
    if language is not KEEP and language is not None:
        _check_language(language)
    if moved_mail is not None and moved_mail not in set(MovedMail):
        choices = ", ".join(MovedMail)
        raise Invalid(
            _(
                "'X moved' mail must be one of %(choices)s, not %(value)s",
                choices=choices,
                value=repr(moved_mail),
            )
        )
    old_quiet = (user.quiet_start, user.quiet_end)
    quiet = old_quiet if quiet_hours is KEEP else parse_quiet_hours(quiet_hours)
    if reminder_hours is not KEEP and reminder_hours is not None:
        _check_reminder_hours(reminder_hours)
    digest = user.digest_hour if digest_hour is KEEP else digest_hour
    _check_digest_hour(digest, quiet)
    weekday = user.league_digest_day if league_digest_day is KEEP else league_digest_day
    weekly_hour = user.league_digest_hour if league_digest_hour is None else league_digest_hour
    _check_league_digest(weekday, weekly_hour)
    moves_deadlines = time_zone not in (None, user.time_zone) or quiet != old_quiet
    renamed = name not in (None, user.name)
    changes = {"name": name, "time_zone": time_zone, "moved_mail": moved_mail}
    for field, value in changes.items():
        if value is not None:
            setattr(user, field, value)
    if language is not KEEP:
        user.language = language
    user.quiet_start, user.quiet_end = quiet
    if reminder_hours is not KEEP:
        user.reminder_hours = reminder_hours
    user.digest_hour = digest
    user.league_digest_day, user.league_digest_hour = weekday, weekly_hour
    if renamed:
        _rename_held_places(session, user)
    if moves_deadlines:
        recompute_user(session, user)
        notifications.retime_held(session, user)


def _rename_held_places(session: Session, user: User) -> None:
    """Seats and season places are named when taken and keep that name in
    finished records; while their game or season goes on they follow a
    rename, so pages, mails and the API call the player as they call
    themselves now. A seat changing hands at the same moment is skipped
    once the change commits (the update waits for its row lock)."""
    going_on = select(Game.id).where(Game.status != GameStatus.FINISHED)
    session.execute(
        update(Seat)
        .where(Seat.user_id == user.id, Seat.game_id.in_(going_on))
        .values(name=user.name)
    )
    running = select(Season.id).where(Season.finished_at.is_(None))
    session.execute(
        update(SeasonEntrant)
        .where(SeasonEntrant.user_id == user.id, SeasonEntrant.season_id.in_(running))
        .values(name=user.name)
    )


def parse_quiet_hours(text: str | None) -> tuple[str, str] | tuple[None, None]:
    """ "22:00-08:00" -> ("22:00", "08:00"), each written HH:MM; None: no quiet hours."""
    if text is None:
        return None, None
    parts = text.split("-")
    if len(parts) != 2:
        raise Invalid(
            _(
                "quiet hours look like 22:00-08:00 (from-to, your time), not %(text)s",
                text=repr(text),
            )
        )
    start, end = (_quiet_hours_time(part) for part in parts)
    if start == end:
        raise Invalid(_("quiet hours must end at another time than they start"))
    return f"{start:%H:%M}", f"{end:%H:%M}"


def _quiet_hours_time(text: str) -> time:
    try:
        return parse_clock_time(text)
    except ValueError:
        raise Invalid(
            _("quiet hours: %(time)s is not a time of day like 22:00", time=repr(text))
        ) from None


def _check_reminder_hours(hours: int) -> None:
    if hours not in REMINDER_HOURS:
        raise Invalid(
            _(
                "a reminder comes %(first)d to %(last)d hours before a deadline, not %(hours)d",
                first=REMINDER_HOURS.start,
                last=REMINDER_HOURS.stop - 1,
                hours=hours,
            )
        )


def _check_digest_hour(hour: int | None, quiet: tuple[str | None, str | None]) -> None:
    """The digest comes at its hour or not at all: never held back by quiet hours."""
    if hour is None:
        return
    if hour not in DIGEST_HOURS:
        raise Invalid(_("the daily digest hour must be from 0 to 23, not %(hour)d", hour=hour))
    start, end = quiet
    if start and end and in_quiet_hours(time(hour), parse_clock_time(start), parse_clock_time(end)):
        raise Invalid(
            _(
                "a daily digest at %(hour)02d:00 would fall in your quiet hours (%(start)s to"
                " %(end)s), when no mail is sent: choose another hour, or change the quiet hours",
                hour=hour,
                start=start,
                end=end,
            )
        )


def _check_league_digest(day: int | None, hour: int) -> None:
    """Any hour will do: one in the quiet hours waits for their end, as all mail does."""
    if day is not None and day not in WEEKDAY_NUMBERS:
        raise Invalid(
            _("the league digest's day is 0 (Monday) to 6 (Sunday), not %(day)d", day=day)
        )
    if hour not in DIGEST_HOURS:
        raise Invalid(_("the league digest's hour must be from 0 to 23, not %(hour)d", hour=hour))


def new_calendar_token(user: User) -> None:
    """A new secret address for the user's calendar; the old one stops working."""
    user.calendar_token = seat_token()


def user_by_email(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == normalise_email(email)))


def user_for_sign_in(session: Session, email: str) -> User:
    """The user with this address, created on their first sign-in request
    (named after the address until they choose a name)."""
    return user_by_email(session, email) or create_user(session, email, "")


def invited_user(session: Session, email: str, language: str | None) -> User:
    """The person at `email`, invited to a game or a league (an account from
    now on, as on a first sign-in request). `language`: the one the inviter
    chose for them, which their mails (and pages) speak until they choose
    one themselves: it is kept only for someone who has never signed in and
    chose none, since a player who has reads their mail in English already."""
    if language is not None:
        _check_language(language)
    user = user_for_sign_in(session, email)
    if language is not None and user.signed_in_at is None and user.language is None:
        user.language = language
    return user


def claim_sign_in(session: Session, user_id: int, last_sign_in: datetime | None) -> bool:
    """Record a sign-in, provided the user's last one is still `last_sign_in`:
    a link made before another sign-in, or used twice at once, is refused."""
    condition = (
        User.signed_in_at.is_(None) if last_sign_in is None else User.signed_in_at == last_sign_in
    )
    changed = session.execute(
        update(User).where(User.id == user_id, condition).values(signed_in_at=utcnow())
    )
    return rows_changed(changed) == 1


def secret_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_api_token(session: Session, user: User, label: str = "") -> str:
    """A new bearer token for `user`; only its hash is stored, so show it now."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, token_hash=secret_hash(token), label=label))
    session.flush()
    return token


def user_for_token(session: Session, token: str) -> User | None:
    """The token's user, the token's last use noted in the session if it is
    more than TOKEN_USE_PRECISION old (the caller commits)."""
    row = session.scalar(
        select(ApiToken)
        .options(joinedload(ApiToken.user))
        .where(ApiToken.token_hash == secret_hash(token))
    )
    if row is None or row.user.locked_out:
        return None
    now = utcnow()
    if row.last_used_at is None or now - row.last_used_at >= TOKEN_USE_PRECISION:
        row.last_used_at = now
    return row.user
