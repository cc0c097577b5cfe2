"""The lobby: my games, starting a game (seats, options, invitations, bots)
and joining one, by invitation link or from the list of open games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext, ngettext
from flask_limiter.util import get_remote_address

import engine
from engine.bots import DEFAULT_LEVEL
from engine.core.options import Option
from pbem.i18n import invitee_language
from pbem.i18n.games import game_title
from pbem.i18n.times import local_time
from pbem.models import Game, GameStatus, Seat, User
from pbem.ratelimit import Rate, limited
from pbem.services import accounts, notifications
from pbem.services import games as game_service
from pbem.services.bots import LEVEL_WORDS, level_of_choice
from pbem.services.errors import Invalid, NotFound
from pbem.services.game_lists import Section, my_games
from pbem.services.links import (
    BadLink,
    absolute_url,
    invite_token,
    read_invite_token,
    read_take_over_token,
)
from pbem.services.names import refuse_control_characters
from pbem.web.clock_form import CLOCK_DEFAULTS, CLOCK_FIELDS, time_control_from_form
from pbem.web.common import db, me, open_account, page_blueprint, sign_in_browser, signed_in

bp = page_blueprint("lobby")
TITLE_LENGTH = 200  # Game.title's column
CASUAL = lazy_gettext("Casual games")
SEAT_KINDS = {
    "": lazy_gettext("nobody"),
    "me": lazy_gettext("me"),
    **{
        f"bot:{level}": lazy_gettext("a bot: %(level)s", level=words)
        for level, words in LEVEL_WORDS.items()
    },
    "invite": lazy_gettext("invite by e-mail"),
    "open": lazy_gettext("anyone"),
}


@dataclass(frozen=True)
class GameRow:
    """One line of "my games"."""

    game: Game
    title: str
    my_turn: bool
    waiting_for: list[str]
    joinable: bool
    deadline: str | None  # the reader's own, in their zone: when their move times out


def titles() -> dict[str, str]:
    """Each game's name in the reader's language, by ruleset."""
    return {rules.name: game_title(rules.name) for rules in engine.rulesets()}


def newest_rulesets() -> dict[str, type[engine.State[Any]]]:
    return {rules.name: rules for rules in engine.rulesets()}  # sorted: newest version wins


@bp.route("/")
def home() -> str:
    user = me()
    if user is None:
        return render_template("landing.html", rulesets=newest_rulesets().values())
    names = titles()
    asked = {section: request.args.get(section, 1, type=int) for section in Section}
    sections = {
        section: (page, grouped([_row(game, user, names) for game in page.games]))
        for section, page in my_games(db(), user, asked).items()
    }
    return render_template(
        "home.html",
        user=user,
        sections=sections,
        Section=Section,
        page_url=_page_url,
        casual=CASUAL,
    )


def grouped(rows: list[GameRow]) -> list[tuple[str, list[GameRow]]]:
    """Rows by league season ("Club – Season 2"), in the order they come;
    casual games (no season) in a group of their own, last."""
    groups: dict[str, list[GameRow]] = {}
    for row in rows:
        season = row.game.season
        key = season_title(season.league.name, season.number) if season else ""
        groups.setdefault(key, []).append(row)
    casual = groups.pop("", None)
    return [*groups.items(), *([(str(CASUAL), casual)] if casual else [])]


def season_title(league: str, number: int) -> str:
    """ "Club – Season 2", as the game pages name a league game's season too."""
    return _("%(league)s – Season %(number)s", league=league, number=number)


def _page_url(section: Section, number: int) -> str:
    """This page with one section turned to page `number`, the others kept."""
    args: dict[str, Any] = {**request.args.to_dict(), section: number}
    return url_for("lobby.home", **args, _anchor=section)


def _row(game: Game, user: User, names: dict[str, str]) -> GameRow:
    mine = {seat.position for seat in game.seats if seat.user_id == user.id}
    due = [s.timeout_at for s in game.seats if s.position in mine and s.timeout_at is not None]
    return GameRow(
        game=game,
        title=names.get(game.ruleset, game.ruleset),
        my_turn=game.status == GameStatus.ACTIVE and bool(mine & set(game.to_act)),
        waiting_for=[seat.name for seat in game.seats if seat.position in game.to_act],
        joinable=not mine and bool(game_service.open_seats_for(game, user)),
        deadline=local_time(min(due), user.time_zone) if due else None,
    )


@bp.route("/games/new")
@signed_in
def choose_game() -> str:
    return render_template("new_game_choose.html", rulesets=newest_rulesets().values())


def _signed_in_user() -> str:
    user = me()
    return f"user:{user.id}" if user is not None else get_remote_address()


def _invitations_in_form() -> int:
    return sum(
        1 for key, value in request.form.items() if key.startswith("seat-") and value == "invite"
    )


@bp.route("/games/new/<ruleset>", methods=["GET", "POST"])
@limited(
    Rate(
        "PBEM_INVITATION_LIMIT",
        lazy_gettext("You have sent too many invitations"),
        key=_signed_in_user,
        methods=("POST",),
        cost=_invitations_in_form,
        exempt_when=lambda: _invitations_in_form() == 0,
    )
)
@signed_in
def new_game(ruleset: str) -> ResponseReturnValue:
    rules = newest_rulesets().get(ruleset)
    if rules is None:
        raise NotFound(_("no such game"))
    form = request.form if request.method == "POST" else _default_form(rules)
    if request.method == "GET":
        return _new_game_page(rules, form)
    try:
        specs = _seat_specs(rules, form)
        options = options_from_form(rules.option_spec, form)
        clock = time_control_from_form(form)
        game = game_service.create_game(
            db(),
            me(),
            rules.name,
            specs,
            options,
            time_control=clock,
            title=_title(form),
            stand_in=form.get("stand_in") or None,
        )
        _send_invitations(game, form)
    except Invalid as exc:
        db().rollback()
        return _new_game_page(rules, form, error=str(exc)), 422
    db().commit()
    return redirect(url_for("play.game_page", game_id=game.public_id))


def _new_game_page(rules: type[engine.State[Any]], form: Any, error: str | None = None) -> str:
    return render_template(
        "new_game.html",
        rules=rules,
        title=game_title(rules.name),
        form=form,
        kinds=SEAT_KINDS,
        rows=range(rules.max_players),
        clock=CLOCK_FIELDS,
        error=error,
    )


def _default_form(rules: type[engine.State[Any]]) -> dict[str, Any]:
    form: dict[str, Any] = {
        f"seat-{i}": f"bot:{DEFAULT_LEVEL}" for i in range(1, rules.min_players)
    }
    form["seat-0"] = "me"
    form.update(CLOCK_DEFAULTS)
    for option in rules.option_spec:
        form[f"option-{option.name}"] = option.default
    return form


def _seat_specs(rules: type[engine.State[Any]], form: Any) -> list[game_service.SeatSpec]:
    specs = []
    kinds = [form.get(f"seat-{i}", "") for i in range(rules.max_players)]
    if kinds.count("me") > 1:
        raise Invalid(_("you can take one seat only"))
    for index, kind in enumerate(kinds):
        level = level_of_choice(kind)  # "bot" alone: the default level
        if level is None and kind not in SEAT_KINDS:
            raise Invalid(_("unknown kind of seat: %(kind)s", kind=repr(kind)))
        if kind == "invite":
            email = accounts.normalise_email(form.get(f"invite-{index}", ""))
            specs.append(game_service.SeatSpec(invite=email))
        elif kind:
            user = me() if kind == "me" else None
            specs.append(game_service.SeatSpec(user=user, bot=level))
    if not rules.min_players <= len(specs) <= rules.max_players:
        raise Invalid(
            ngettext(
                "%(game)s is for %(low)s to %(num)s players, not %(given)s",
                "%(game)s is for %(low)s to %(num)s players, not %(given)s",
                rules.max_players,
                game=game_title(rules.name),
                low=rules.min_players,
                given=len(specs),
            )
        )
    return specs


def options_from_form(spec: tuple[Option, ...], form: Any) -> dict[str, Any]:
    """Check boxes send nothing when off; other fields are coerced by the engine."""
    return {
        option.name: (f"option-{option.name}" in form)
        if isinstance(option.default, bool)
        else form.get(f"option-{option.name}", option.default)
        for option in spec
    }


def _title(form: Any) -> str:
    """The title typed, or "" for the default one; it goes into mail subjects."""
    title = form.get("title", "").strip()
    if len(title) > TITLE_LENGTH:
        raise Invalid(
            ngettext(
                "a title has at most %(num)s character",
                "a title has at most %(num)s characters",
                TITLE_LENGTH,
            )
        )
    return refuse_control_characters(title, _("a title"))


def _send_invitations(game: Game, form: Any) -> None:
    inviter = me()
    assert inviter is not None
    languages = _invitee_languages(form)
    for seat in game.seats:
        if seat.invited_email:
            language = languages[seat.invited_email]
            invitee = accounts.invited_user(db(), seat.invited_email, language)
            link = absolute_url("lobby.invitation", token=invite_token(seat.id, invitee.email))
            notifications.notify_invite(db(), seat, invitee, link, inviter.name, language=language)


def _invitee_languages(form: Any) -> dict[str, str]:
    """The language chosen for each address invited in the form's seat rows."""
    rows = [
        key.removeprefix("seat-")
        for key, kind in form.items()
        if key.startswith("seat-") and kind == "invite"
    ]
    return {
        accounts.normalise_email(form.get(f"invite-{row}", "")): invitee_language(
            form.get(f"invite-language-{row}")
        )
        for row in rows
    }


def _invited_seat(token: str) -> tuple[Seat, User]:
    """The seat the invitation is for, still open and still kept for its address."""
    seat_id, email = read_invite_token(token)
    seat = db().get(Seat, seat_id)
    invitee = accounts.user_by_email(db(), email)
    if seat is None or invitee is None or seat.invited_email != email or not seat.is_open:
        raise BadLink(_("this invitation has been used or withdrawn"))
    return seat, open_account(invitee)


@bp.route("/join/<token>", methods=["GET", "POST"])
def invitation(token: str) -> ResponseReturnValue:
    """The link in an invitation. It came to the invitee's mailbox, so it signs
    them in too; it works until the seat is taken."""
    try:
        seat, invitee = _invited_seat(token)
    except BadLink as exc:
        return render_template("bad_link.html", message=str(exc)), 400
    user = me()
    if user is not None and user.id != invitee.id:
        page = render_template("invitation.html", seat=seat, invitee=invitee, other=user)
        return page, 403
    if request.method == "GET":
        return render_template("invitation.html", seat=seat, invitee=invitee, other=None)
    first = invitee.signed_in_at is None
    if user is None:
        accounts.claim_sign_in(db(), invitee.id, invitee.signed_in_at)
    game_service.join_game(db(), seat.game.public_id, invitee, seat.position)
    db().commit()
    return _enter_game(seat, invitee, user, first)


def _enter_game(seat: Seat, invitee: User, user: User | None, first: bool) -> ResponseReturnValue:
    """After an invitation was taken: the invitee is signed in and sees the game."""
    game_page = url_for("play.game_page", game_id=seat.game.public_id)
    return enter_as_invitee(invitee, user, first, game_page)


def enter_as_invitee(
    invitee: User, user: User | None, first: bool, page: str
) -> ResponseReturnValue:
    """After an invitation (to a game or a league) was taken: the invitee is
    signed in, unless they were already, and sees `page` (after the welcome,
    the first time)."""
    if user is None:
        sign_in_browser(invitee)
    if first:
        return redirect(url_for("auth.welcome", next=page))
    return redirect(page)


def _taken_over_seat(token: str) -> tuple[Seat, User]:
    """The seat the organiser gave to the link's address, while the link is unused."""
    seat_id, email = read_take_over_token(token)
    seat = db().get(Seat, seat_id)
    invitee = accounts.user_by_email(db(), email)
    if seat is None or invitee is None or seat.invited_email != email or seat.user != invitee:
        raise BadLink(_("this invitation has been used or withdrawn"))
    return seat, open_account(invitee)


@bp.route("/take-over/<token>", methods=["GET", "POST"])
def take_over(token: str) -> ResponseReturnValue:
    """The link in the mail to a player the organiser gave a seat of a game
    under way: the seat is theirs already; the link signs them in, once."""
    try:
        seat, invitee = _taken_over_seat(token)
    except BadLink as exc:
        return render_template("bad_link.html", message=str(exc)), 400
    user = me()
    other = user if user is not None and user.id != invitee.id else None
    page = render_template(
        "invitation.html", seat=seat, invitee=invitee, other=other, taking_over=True
    )
    if other is not None or request.method == "GET":
        return page, 403 if other else 200
    first = invitee.signed_in_at is None
    if user is None:
        accounts.claim_sign_in(db(), invitee.id, invitee.signed_in_at)
    seat.invited_email = None  # the link is used
    db().commit()
    return _enter_game(seat, invitee, user, first)


@bp.route("/games/<game_id>/join", methods=["POST"])
@signed_in
def join(game_id: str) -> ResponseReturnValue:
    user = me()
    assert user is not None
    game_service.join_game(db(), game_id, user, None)
    db().commit()
    return redirect(url_for("play.game_page", game_id=game_id))
