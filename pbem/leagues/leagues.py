"""Leagues: making one, its organisers, and its entrants (invited by address,
or joining an open league through its link)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select, update
from sqlalchemy.orm import Session

import engine
from pbem.db import lock_league
from pbem.leagues import notices
from pbem.leagues.standings import points_table
from pbem.models import Entrant, Game, GameStatus, League, LeagueOrganiser, Season, User, utcnow
from pbem.services.accounts import invited_user, normalise_email, user_for_sign_in
from pbem.services.bots import checked_level, stand_in_or_default
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.services.names import checked_name
from pbem.services.time_control import TimeControl

MAX_DIVISIONS = 10


def create_league(
    session: Session,
    creator: User,
    name: str,
    ruleset: str,
    players_per_game: int,
    options: Mapping[str, Any] | None = None,
    time_control: TimeControl | None = None,
    points: Sequence[Any] | None = None,
    open_to_all: bool = False,
    divisions: int = 1,
    promotion: int = 0,
    stand_in: str | None = None,
) -> League:
    """A new league; its creator is its first organiser. The game's options
    and player count are checked by the engine now, not when a season starts."""
    try:
        rules = engine.get_ruleset(ruleset)
        state = rules.new(players_per_game, "check", options)
    except engine.EngineError as exc:
        raise Invalid(str(exc)) from None
    if players_per_game not in range(2, 5):
        raise Invalid(_("a league game has 2, 3 or 4 players"))
    if divisions not in range(1, MAX_DIVISIONS + 1):
        raise Invalid(_("a league has 1 to %(most)d divisions", most=MAX_DIVISIONS))
    if promotion < 0 or (divisions == 1 and promotion):
        raise Invalid(_("promotion needs two divisions or more, and cannot be negative"))
    table = None if points is None else [str(p) for p in points_table(points, players_per_game)]
    league = League(
        name=checked_name(name),
        ruleset=rules.name,
        players_per_game=players_per_game,
        options=dict(state.options),
        time_control=time_control.to_json() if time_control else None,
        points_table=table,
        open=open_to_all,
        divisions=divisions,
        promotion=promotion,
        stand_in=stand_in_or_default(stand_in),
        created_by_id=creator.id,
    )
    league.organisers.append(LeagueOrganiser(user_id=creator.id))
    session.add(league)
    session.flush()
    return league


def league_time_control(league: League) -> TimeControl | None:
    return TimeControl(**league.time_control) if league.time_control else None


def find_league(session: Session, league_public_id: str) -> League:
    league = session.scalar(select(League).where(League.public_id == league_public_id))
    if league is None:
        raise NotFound(_("no such league"))
    return league


def is_organiser(league: League, user: User | None) -> bool:
    return user is not None and any(o.user_id == user.id for o in league.organisers)


def organised_league(session: Session, league_public_id: str, user: User) -> League:
    """The league, for one of its organisers only."""
    league = find_league(session, league_public_id)
    if not is_organiser(league, user):
        raise Forbidden(_("only the league's organisers may do that"))
    return league


def choose_stand_in(session: Session, league: League, level: str) -> None:
    """The level of the bots that stand in for absent players in the league's
    games, those under way too, and that play for entrants who withdrew (bots
    already in a seat keep theirs). Under the league's lock, as its writers."""
    league = lock_league(session, league.id)
    league.stand_in = checked_level(level)
    seasons = select(Season.id).where(Season.league_id == league.id)
    session.execute(
        update(Game)
        .where(Game.season_id.in_(seasons), Game.status != GameStatus.FINISHED)
        .values(stand_in=league.stand_in)
    )


def add_organiser(session: Session, league: League, email: str) -> User:
    """Another organiser, with every power of the creator's."""
    user = user_for_sign_in(session, email)
    if is_organiser(league, user):
        raise Conflict(_("%(email)s organises this league already", email=user.email))
    league.organisers.append(LeagueOrganiser(user_id=user.id))
    session.flush()
    return user


def invite_entrant(
    session: Session,
    league: League,
    organiser: User,
    email: str,
    link: str,
    language: str | None = None,
) -> Entrant:
    """Keep a place for the person at `email` and mail them the league's link;
    they are an entrant once they accept (join_league). `link`: the league's
    page; `language`: the invitee's, as the organiser chose it (invited_user)."""
    address = normalise_email(email)
    for entrant in league.entrants:
        if entrant.left_at is None and address in (
            entrant.invited_email,
            entrant.user.email if entrant.user else None,
        ):
            raise Conflict(_("%(email)s is invited to this league already", email=address))
    entrant = _entrant_of(league, address) or Entrant(league=league)
    entrant.invited_email, entrant.left_at = address, None
    entrant.division = entrant.division or league.divisions
    session.add(entrant)
    session.flush()
    invitee = invited_user(session, address, language)
    notices.invitation(session, league, invitee, organiser, link, language)
    return entrant


def join_league(session: Session, league_public_id: str, user: User) -> Entrant:
    """Enter the league: accepting an invitation, or, in an open league, by its
    link. Newcomers start in the lowest division. Under the league's lock,
    so the same player joining twice at once enters once."""
    league = lock_league(session, find_league(session, league_public_id).id)
    entrant = next((e for e in league.entrants if e.user_id == user.id), None)
    if entrant is not None and entrant.left_at is None:
        raise Conflict(_("you are an entrant of this league already"))
    entrant = entrant or _entrant_of(league, user.email)
    if entrant is None:
        if not league.open:
            raise Forbidden(_("this league takes only the players its organisers invite"))
        entrant = Entrant(league=league, division=league.divisions)
        session.add(entrant)
    entrant.user_id, entrant.invited_email = user.id, user.email
    entrant.joined_at, entrant.left_at = utcnow(), None
    session.flush()
    return entrant


def set_division(league: League, entrant_id: int, division: int) -> Entrant:
    """Place an entrant in a division for the seasons to come (the first
    season's divisions, or a correction between seasons)."""
    entrant = next((e for e in league.entrants if e.id == entrant_id and e.left_at is None), None)
    if entrant is None:
        raise NotFound(_("no such entrant in this league"))
    if division not in range(1, league.divisions + 1):
        raise Invalid(_("this league's divisions are 1 to %(most)d", most=league.divisions))
    entrant.division = division
    return entrant


def _entrant_of(league: League, address: str) -> Entrant | None:
    return next((e for e in league.entrants if e.invited_email == address), None)


def current_entrants(league: League) -> list[Entrant]:
    """Those who accepted and have not left, by division then name."""
    playing = [e for e in league.entrants if e.user is not None and e.left_at is None]
    return sorted(playing, key=_division_and_name)


def _division_and_name(entrant: Entrant) -> tuple[int, str, int]:
    assert entrant.user is not None  # a current entrant accepted
    return entrant.division, entrant.user.name.casefold(), entrant.id


def find_season(session: Session, league_public_id: str, number: int) -> Season:
    """Season `number` of the league, for its pages and exports."""
    return season_of(find_league(session, league_public_id), number)


def season_of(league: League, number: int) -> Season:
    found = next((s for s in league.seasons if s.number == number), None)
    if found is None:
        raise NotFound(_("no such season in this league"))
    return found


def active_entrant(league: League, user: User) -> Entrant | None:
    """The user's entry in the league, while they have not left it."""
    return next((e for e in league.entrants if e.user_id == user.id and e.left_at is None), None)


def current_season(league: League) -> Season | None:
    """The season under way, if any."""
    return next((s for s in league.seasons if s.finished_at is None), None)
