"""The leagues a player entered, with where they stand, for their profile:
each season of them they played and their place in its division's table
(pbem.leagues.tables, from stored results: no replay)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.leagues.tables import division_table
from pbem.models import Entrant, League, Season, User


@dataclass(frozen=True)
class LeagueStanding:
    league: League
    season: Season | None  # None until the player plays a season of it
    division: int
    place: str  # as the table shows it: "2", "2=" when tied; "" without a season


def leagues_of(session: Session, user: User) -> list[LeagueStanding]:
    """Every season the player played in the leagues they entered, by league
    name and newest season first, with their place in it (a league they left
    keeps its seasons); a league entered with no season played yet once."""
    entrants = session.scalars(
        select(Entrant)
        .join(League)
        .where(Entrant.user_id == user.id, Entrant.joined_at.is_not(None))
        .order_by(League.name, League.id)
    )
    standings: list[LeagueStanding] = []
    for entrant in entrants:
        played = _seasons_played(session, entrant)
        if played or entrant.left_at is None:
            standings += played or [LeagueStanding(entrant.league, None, entrant.division, "")]
    return standings


def _seasons_played(session: Session, entrant: Entrant) -> list[LeagueStanding]:
    standings = []
    for season in sorted(entrant.league.seasons, key=lambda s: s.number, reverse=True):
        mine = next((p for p in season.entrants if p.entrant_id == entrant.id), None)
        if mine is not None:
            table = division_table(session, season, mine.division)
            row = next(r.row for r in table if r.place.id == mine.id)
            standings.append(LeagueStanding(entrant.league, season, mine.division, row.place))
    return standings
