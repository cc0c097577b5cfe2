"""A division's table in a season, from its finished games' stored results:
pbem.leagues.standings does the counting, this module feeds it from the
database and adds what the pages show (the player, their rating)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from flask_babel import lazy_gettext
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from pbem.leagues.standings import GameOutcome, Row, standings
from pbem.models import Game, GameStatus, Rating, Season, SeasonEntrant
from pbem.services.ratings import conservative
from pbem.services.results import game_result

PER_GAME = lazy_gettext(
    "Some entrants play one game more than others: the table ranks by points per game,"
    " then score per game."
)


@dataclass(frozen=True)
class TableRow:
    place: SeasonEntrant  # the entrant's place in the season
    row: Row  # rank, played, points, score, the ids of its counted games
    rating: float | None  # the player's conservative rating in the league's game

    @property
    def withdrawn(self) -> bool:
        return self.place.withdrawn_at is not None


def division_table(session: Session, season: Season, division: int) -> list[TableRow]:
    """Best first; entrants still tied share a rank and stay in name order."""
    places = sorted(
        (p for p in season.entrants if p.division == division),
        key=lambda p: (p.name.casefold(), p.id),
    )
    outcomes = []
    for game in _finished_games(session, season, division):
        result = game_result(game)
        if result is not None:
            entrants = [seat.entrant_id for seat in game.seats]
            outcomes.append(GameOutcome.of(game.id, entrants, result))
    table = season.league.points_table
    rows = standings([p.id for p in places], outcomes, table, ranks_per_game(season, division))
    by_id: dict[Hashable, SeasonEntrant] = {p.id: p for p in places}
    ratings = _ratings(session, season, [p.user_id for p in places if p.user_id is not None])
    return [
        TableRow(by_id[row.entrant], row, ratings.get(by_id[row.entrant].user_id or 0))
        for row in rows
    ]


def ranks_per_game(season: Season, division: int) -> bool:
    """Whether the division's schedule gives some entrants more games than
    others (the design allows no equal count): its table then ranks by points
    per game, and says so."""
    counts = Counter(
        place
        for round_ in season.schedule.get(str(division), [])
        for seating in round_
        for place in seating
    )
    return len(set(counts.values())) > 1


def _finished_games(session: Session, season: Season, division: int) -> list[Game]:
    """With their seats, in two queries however many games (profiles show a
    table per league a player entered)."""
    return list(
        session.scalars(
            select(Game)
            .where(
                Game.season_id == season.id,
                Game.division == division,
                Game.status == GameStatus.FINISHED,
            )
            .order_by(Game.round, Game.number)
            .options(selectinload(Game.seats))
        )
    )


def _ratings(session: Session, season: Season, user_ids: list[int]) -> dict[int, float]:
    found = session.scalars(
        select(Rating).where(Rating.user_id.in_(user_ids), Rating.ruleset == season.league.ruleset)
    )
    return {r.user_id: conservative(r.mu, r.sigma) for r in found}
