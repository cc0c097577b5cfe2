"""League pages: the list of leagues, a new league, a league (its settings,
organisers, entrants and seasons, with the organisers' forms) and a season
(its divisions' balance, tables, rounds and exports). Readable by anyone
signed in: a club's table is not secret; addresses of invitees are shown to
organisers only. Leaving a season and giving a place to another player cannot
be undone, so their GET asks to confirm."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date
from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy import or_, select

from pbem.attachments import attachment
from pbem.i18n import current_language, invitee_language
from pbem.leagues import exports
from pbem.leagues.balance import division_balance
from pbem.leagues.leagues import (
    active_entrant,
    add_organiser,
    choose_stand_in,
    create_league,
    find_league,
    find_season,
    invite_entrant,
    is_organiser,
    join_league,
    league_time_control,
    organised_league,
    set_division,
)
from pbem.leagues.links import invitation_link, league_link
from pbem.leagues.seasons import division_rounds, round_start, start_season
from pbem.leagues.tables import PER_GAME, division_table, ranks_per_game
from pbem.leagues.withdrawal import leave_league, replace, season_place, withdraw
from pbem.models import Entrant, League, LeagueOrganiser, Season, SeasonEntrant, User
from pbem.numbers import ID_CONVERTER, whole_number
from pbem.services import accounts
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError
from pbem.services.links import BadLink, read_league_invite_token
from pbem.web.clock_form import CLOCK_DEFAULTS, CLOCK_FIELDS, time_control_from_form
from pbem.web.common import address_to_confirm, db, me, open_account, page_blueprint, signed_in
from pbem.web.league_form import LeagueForm, season_settings
from pbem.web.lobby import enter_as_invitee, newest_rulesets, titles

bp = page_blueprint("leagues")
SEASON_URL = f"/leagues/<league_id>/seasons/<{ID_CONVERTER}:number>"


def _me() -> User:
    user = me()
    assert user is not None  # @signed_in
    return user


@bp.route("/leagues")
@signed_in
def leagues() -> str:
    user = _me()
    mine = select(LeagueOrganiser.league_id).where(LeagueOrganiser.user_id == user.id)
    entered = select(Entrant.league_id).where(Entrant.user_id == user.id, Entrant.left_at.is_(None))
    found = (
        db()
        .scalars(
            select(League)
            .where(or_(League.id.in_(mine), League.id.in_(entered), League.open.is_(True)))
            .order_by(League.name, League.id)
        )
        .all()
    )
    own = [league for league in found if is_organiser(league, user) or active_entrant(league, user)]
    others = [league for league in found if league not in own]
    return render_template("leagues.html", own=own, others=others, titles=titles())


@bp.route("/leagues/new", methods=["GET", "POST"])
@signed_in
def new_league() -> ResponseReturnValue:
    rulesets = newest_rulesets()
    rules = rulesets.get(request.values.get("game", ""))
    if rules is None:
        return render_template("new_league_choose.html", rulesets=rulesets.values())
    if request.method == "GET":
        defaults = {f"option-{option.name}": option.default for option in rules.option_spec}
        return _new_league_page(rules, {**CLOCK_DEFAULTS, **defaults})
    form = request.form
    try:
        asked = LeagueForm.read(rules, form)
        league = create_league(
            db(),
            _me(),
            asked.name,
            rules.name,
            asked.players,
            asked.options,
            time_control=time_control_from_form(form),
            points=asked.points,
            open_to_all=asked.open,
            divisions=asked.divisions,
            promotion=asked.promotion,
            stand_in=asked.stand_in,
        )
    except Invalid as exc:
        db().rollback()
        return _new_league_page(rules, form, error=str(exc)), 422
    db().commit()
    return redirect(url_for("leagues.league", league_id=league.public_id))


def _new_league_page(rules: Any, form: Any, error: str | None = None) -> str:
    return render_template(
        "new_league.html",
        rules=rules,
        form=form,
        clock=CLOCK_FIELDS,
        error=error,
        titles=titles(),
    )


@bp.route("/leagues/<league_id>")
@signed_in
def league(league_id: str) -> ResponseReturnValue:
    return _league_page(find_league(db(), league_id))


def _league_page(found: League, refusal: ServiceError | None = None) -> ResponseReturnValue:
    """The league page; with `refusal`, an organiser's form that was refused,
    its reason shown above the forms (and its status: 409 or 422)."""
    if refusal is not None:
        db().rollback()  # nothing of the refused form is kept, or shown
    user = _me()
    entrant = active_entrant(found, user)
    invited = entrant is None and any(
        e.invited_email == user.email and e.user_id is None and e.left_at is None
        for e in found.entrants
    )
    page = render_template(
        "league.html",
        league=found,
        organiser=is_organiser(found, user),
        time_control=league_time_control(found),
        entrant=entrant,
        may_join=entrant is None and (found.open or invited),
        share_link=league_link(found),
        titles=titles(),
        refusal=str(refusal) if refusal else None,
    )
    if refusal is None:
        return page
    return page, 409 if isinstance(refusal, Conflict) else 422


def _to_league(league_id: str) -> ResponseReturnValue:
    db().commit()
    return redirect(url_for("leagues.league", league_id=league_id))


@bp.route("/leagues/<league_id>/join", methods=["POST"])
@signed_in
def join(league_id: str) -> ResponseReturnValue:
    join_league(db(), league_id, _me())
    return _to_league(league_id)


@bp.route("/leagues/invitation/<token>", methods=["GET", "POST"])
def invitation(token: str) -> ResponseReturnValue:
    """The link in a league invitation. It came to the invitee's mailbox, so
    taking it signs them in too; it works while their place is kept."""
    try:
        league, invitee = _invited_place(token)
    except BadLink as exc:
        return render_template("bad_link.html", message=str(exc)), 400
    user = me()
    other = user if user is not None and user.id != invitee.id else None
    if other is not None or request.method == "GET":
        page = render_template(
            "league_invitation.html", league=league, invitee=invitee, other=other
        )
        return page, 403 if other else 200
    first = invitee.signed_in_at is None
    if user is None:
        accounts.claim_sign_in(db(), invitee.id, invitee.signed_in_at)
    join_league(db(), league.public_id, invitee)
    db().commit()
    return enter_as_invitee(
        invitee, user, first, url_for("leagues.league", league_id=league.public_id)
    )


def _invited_place(token: str) -> tuple[League, User]:
    """The league and the invitee whose place in it is kept and not yet taken."""
    league_id, email = read_league_invite_token(token)
    league = db().scalar(select(League).where(League.public_id == league_id))
    invitee = accounts.user_by_email(db(), email)
    kept = league is not None and any(
        e.invited_email == email and e.user_id is None and e.left_at is None
        for e in league.entrants
    )
    if league is None or not kept or invitee is None:
        raise BadLink(_("this invitation has been used or withdrawn"))
    return league, open_account(invitee)


@bp.route("/leagues/<league_id>/leave", methods=["GET", "POST"])
@signed_in
def leave(league_id: str) -> ResponseReturnValue:
    found = find_league(db(), league_id)
    if request.method == "GET":
        if active_entrant(found, _me()) is None:
            raise NotFound(_("you are not an entrant of this league"))
        return render_template("league_confirm.html", league=found, action="leave")
    leave_league(db(), found, _me())
    return _to_league(league_id)


@bp.route("/leagues/<league_id>/invite", methods=["POST"])
@signed_in
def invite(league_id: str) -> ResponseReturnValue:
    found = organised_league(db(), league_id, _me())
    try:
        email, language = request.form.get("email", ""), request.form.get("language")
        link = invitation_link(found, email)
        invite_entrant(db(), found, _me(), email, link, invitee_language(language))
    except (Invalid, Conflict) as refusal:
        return _league_page(found, refusal)
    return _to_league(league_id)


@bp.route("/leagues/<league_id>/stand-in", methods=["POST"])
@signed_in
def stand_in(league_id: str) -> ResponseReturnValue:
    found = organised_league(db(), league_id, _me())
    choose_stand_in(db(), found, request.form.get("level", ""))
    return _to_league(league_id)


@bp.route("/leagues/<league_id>/organisers", methods=["POST"])
@signed_in
def organisers(league_id: str) -> ResponseReturnValue:
    found = organised_league(db(), league_id, _me())
    add_organiser(db(), found, request.form.get("email", ""))
    return _to_league(league_id)


@bp.route(f"/leagues/<league_id>/entrants/<{ID_CONVERTER}:entrant_id>/division", methods=["POST"])
@signed_in
def place_entrant(league_id: str, entrant_id: int) -> ResponseReturnValue:
    """An organiser places an entrant in a division for the seasons to come."""
    found = organised_league(db(), league_id, _me())
    division = whole_number(request.form.get("division"))
    if division is None:
        raise Invalid(_("choose a division by its number"))
    set_division(found, entrant_id, division)
    return _to_league(league_id)


@bp.route("/leagues/<league_id>/seasons", methods=["POST"])
@signed_in
def new_season(league_id: str) -> ResponseReturnValue:
    found = organised_league(db(), league_id, _me())
    try:
        season = start_season(db(), found, **season_settings(request.form))
    except (Invalid, Conflict) as refusal:
        return _league_page(found, refusal)
    db().commit()
    return redirect(url_for("leagues.season", league_id=league_id, number=season.number))


@bp.route(SEASON_URL)
@signed_in
def season(league_id: str, number: int) -> str:
    chosen = find_season(db(), league_id, number)
    divisions = sorted({place.division for place in chosen.entrants})
    user = _me()
    return render_template(
        "season.html",
        league=chosen.league,
        season=chosen,
        divisions=[_division(chosen, d) for d in divisions],
        organiser=is_organiser(chosen.league, user),
        mine=_own_place(chosen, user),
        titles=titles(),
    )


def _division(season: Season, division: int) -> dict[str, Any]:
    """What the season page shows of one division."""
    rounds = [
        {
            "number": index,
            "games": [fixture.game for fixture in fixtures],
            "pairings": [fixture.names for fixture in fixtures],
            "starts": _round_starts(season, index),
        }
        for index, fixtures in enumerate(division_rounds(season, division), start=1)
    ]
    return {
        "number": division,
        "balance": division_balance(season, division).describe(),
        "table": division_table(db(), season, division),
        "per_game": ranks_per_game(season, division),
        "per_game_note": PER_GAME,
        "rounds": rounds,
    }


def _round_starts(season: Season, number: int) -> str:
    """When a round not started yet will start, in words, the date in the reader's zone."""
    if season.round_days is None:
        return _("when round %(number)d is over", number=number - 1)
    local = round_start(season, number).astimezone(ZoneInfo(_me().time_zone))
    return _(
        "when round %(number)d is over, or on %(date)s at the latest",
        number=number - 1,
        date=format_date(local, "medium", locale=current_language()),
    )


def _own_place(season: Season, user: User) -> SeasonEntrant | None:
    """The user's place in the season while they still play for it."""
    return next(
        (p for p in season.entrants if p.user_id == user.id and p.withdrawn_at is None), None
    )


def _to_season(season: Season) -> ResponseReturnValue:
    db().commit()
    return redirect(
        url_for("leagues.season", league_id=season.league.public_id, number=season.number)
    )


@bp.route(f"{SEASON_URL}/withdraw", methods=["GET", "POST"])
@signed_in
def withdraw_me(league_id: str, number: int) -> ResponseReturnValue:
    """A player leaves the season (staying in the league for the next one)."""
    chosen = find_season(db(), league_id, number)
    place = _own_place(chosen, _me())
    if place is None:
        raise NotFound(_("you do not play in this season"))
    if request.method == "GET":
        return render_template(
            "league_confirm.html", league=chosen.league, season=chosen, action="withdraw"
        )
    withdraw(db(), chosen, place.id, _me())
    return _to_season(chosen)


@bp.route(f"{SEASON_URL}/places/<{ID_CONVERTER}:place_id>/withdraw", methods=["GET", "POST"])
@signed_in
def withdraw_place(league_id: str, number: int, place_id: int) -> ResponseReturnValue:
    chosen, place = _organised_place(league_id, number, place_id)
    if request.method == "GET":
        return render_template(
            "league_confirm.html",
            league=chosen.league,
            season=chosen,
            place=place,
            action="withdraw-place",
        )
    withdraw(db(), chosen, place.id, _me())
    return _to_season(chosen)


@bp.route(f"{SEASON_URL}/places/<{ID_CONVERTER}:place_id>/replace", methods=["GET", "POST"])
@signed_in
def replace_place(league_id: str, number: int, place_id: int) -> ResponseReturnValue:
    """Giving a place to another player cannot be undone: the GET asks to
    confirm (as a game's replacement does, pbem.web.organiser) and only the
    confirmation's POST acts."""
    chosen, place = _organised_place(league_id, number, place_id)
    if request.method == "GET":
        return _confirm_replace(chosen, place)
    email, language = request.form.get("email", ""), invitee_language(request.form.get("language"))
    try:
        replace(db(), chosen, place.id, _me(), email, language)
    except Invalid as exc:
        db().rollback()
        return _confirm_replace(chosen, place, error=str(exc), status=422)
    return _to_season(chosen)


def _confirm_replace(
    season: Season, place: SeasonEntrant, error: str | None = None, status: int = 200
) -> ResponseReturnValue:
    """The page asking to confirm a replacement; an address that is no
    address is refused here already, before any question."""
    email, refused = address_to_confirm(request.values)
    if error is None and refused is not None:
        error, status = refused, 422
    page = render_template(
        "league_confirm.html",
        league=season.league,
        season=season,
        place=place,
        action="replace-place",
        email=email,
        language=request.values.get("language"),
        error=error,
    )
    return page, status


def _organised_place(league_id: str, number: int, place_id: int) -> tuple[Season, SeasonEntrant]:
    chosen = find_season(db(), league_id, number)
    if not is_organiser(chosen.league, _me()):
        raise Forbidden(_("only the league's organisers may do that"))
    return chosen, season_place(chosen, place_id)


@bp.route(f"{SEASON_URL}/standings.csv")
@signed_in
def standings_csv(league_id: str, number: int) -> ResponseReturnValue:
    chosen = find_season(db(), league_id, number)
    return attachment(
        exports.standings_csv(db(), chosen), "text/csv", f"season-{number}-standings.csv"
    )


@bp.route(f"{SEASON_URL}/standings.json")
@signed_in
def standings_json(league_id: str, number: int) -> ResponseReturnValue:
    return exports.standings_json(db(), find_season(db(), league_id, number))


@bp.route(f"{SEASON_URL}/records.zip")
@signed_in
def records_zip(league_id: str, number: int) -> ResponseReturnValue:
    chosen = find_season(db(), league_id, number)
    archive = exports.records_zip(chosen, _me())
    return attachment(archive, "application/zip", exports.records_zip_name(chosen))
