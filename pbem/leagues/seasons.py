"""Seasons: starting one (its schedule and games), starting each round when
it is due, and ending the season (final tables, promotion and relegation).

The schedule is made once, when the season starts, and kept on the season;
a round's games are created when the round starts, from who holds each
entrant's place then (a replacement, or a bot for an entrant who withdrew).
Rounds move on when a division's games of the round are all over, or, with
`round_days`, on a date at the latest. Once a league game's end is committed,
its season moves on (a receiver of pbem.signals.game_ended); the sweep moves
on every running season too, for rounds due by date and for an end whose
receiver never ran (a worker that died in between).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem import signals
from pbem.db import lock_league, lock_season
from pbem.i18n import in_language
from pbem.i18n.games import game_title as ruleset_title
from pbem.leagues import notices
from pbem.leagues.leagues import current_entrants, current_season, league_time_control
from pbem.leagues.schedule import LEGS, schedule
from pbem.leagues.tables import division_table
from pbem.models import Entrant, Game, GameStatus, League, Season, SeasonEntrant, utcnow
from pbem.services.errors import Conflict, Invalid
from pbem.services.games import SeatSpec, create_game

PACINGS = ("all", "rounds")
ROUND_DAYS = range(1, 61)


def start_season(
    session: Session,
    league: League,
    legs: int = 1,
    pacing: str = "all",
    round_days: int | None = None,
    seed: str | None = None,
) -> Season:
    """The league's next season with its first games (all of them, when
    `pacing` is "all"). The ruleset's newest version is pinned for it. Under
    the league's lock, so two starts at once make one season."""
    league = lock_league(session, league.id)
    running = current_season(league)
    if running is not None:
        raise Conflict(_("season %(number)d is still going on", number=running.number))
    if legs not in LEGS:
        raise Invalid(_("a season has 1 or 2 legs"))
    if pacing not in PACINGS:
        raise Invalid(
            _(
                "pacing must be one of %(choices)s, not %(pacing)s",
                choices=", ".join(PACINGS),
                pacing=repr(pacing),
            )
        )
    if round_days is not None and (pacing != "rounds" or round_days not in ROUND_DAYS):
        raise Invalid(_("days per round go with rounds, from 1 to 60"))
    divisions = _divisions(league, current_entrants(league))
    season = Season(
        league=league,
        number=len(league.seasons) + 1,
        ruleset_version=engine.get_ruleset(league.ruleset).version,
        seed=seed or secrets.token_hex(16),
        legs=legs,
        pacing=pacing,
        round_days=round_days,
        started_at=utcnow(),
    )
    session.add(season)
    plan: dict[str, list[list[list[int]]]] = {}
    for division, entrants in divisions.items():
        places = [
            SeasonEntrant(entrant=e, division=division, user_id=e.user_id, name=e.user.name)
            for e in entrants
            if e.user is not None
        ]
        season.entrants.extend(places)
        session.flush()
        made = schedule(len(places), league.players_per_game, legs, f"{season.seed} {division}")
        plan[str(division)] = [
            [[places[e].id for e in game] for game in round_] for round_ in made.rounds
        ]
    season.schedule = plan
    advance(session, season, season.started_at)
    notices.season_started(session, season)
    return season


def _divisions(league: League, entrants: list[Entrant]) -> dict[int, list[Entrant]]:
    """Entrants by division, each division checked to have enough of them for
    a season; empty divisions are left out of it."""
    by_division: dict[int, list[Entrant]] = defaultdict(list)
    for entrant in entrants:
        by_division[min(entrant.division, league.divisions)].append(entrant)
    if not by_division:
        raise Invalid(_("the league has no entrants yet"))
    need = league.players_per_game
    for division, members in sorted(by_division.items()):
        if len(members) < need:
            raise Invalid(
                ngettext(
                    "division %(division)d has %(num)d entrant: a season of "
                    "%(need)d-player games needs at least %(need)d in each division",
                    "division %(division)d has %(num)d entrants: a season of "
                    "%(need)d-player games needs at least %(need)d in each division",
                    len(members),
                    division=division,
                    need=need,
                )
            )
    return dict(sorted(by_division.items()))


def init_app(_app: Flask) -> None:
    signals.game_ended.connect(_move_on_after_game)


def _move_on_after_game(app: Flask, game_id: int, **_about: object) -> None:
    """A game's end is committed: if it is a league game, start what is now
    due in its season, under the season's lock, in a transaction of its own."""
    with app.extensions["pbem.db"].session() as session:
        season_id = session.scalar(select(Game.season_id).where(Game.id == game_id))
        if season_id is None:
            return
        advance(session, lock_season(session, season_id), utcnow())
        session.commit()


def advance(session: Session, season: Season, now: datetime) -> None:
    """Start every round that is due, then end the season if all is played.
    The caller holds the season's lock (or has just made the season)."""
    if season.finished_at is not None:
        return
    for key, rounds in season.schedule.items():
        division = int(key)
        made = [g for g in season.games if g.division == division]
        current = max((g.round or 0 for g in made), default=0)
        while current < len(rounds) and _round_due(season, made, current, now):
            current += 1
            made += _create_round(session, season, division, current)
            signals.announce(
                session,
                signals.league_round_started,
                season_id=season.id,
                division=division,
                round=current,
            )
            if season.pacing == "rounds" and current > 1:
                _round_ended(session, season, division, current - 1)
    if _all_played(season):
        if season.pacing == "rounds":
            for key, rounds in season.schedule.items():
                _round_ended(session, season, int(key), len(rounds))
        _finish(session, season, now)


def _round_ended(session: Session, season: Season, division: int, number: int) -> None:
    signals.announce(
        session, signals.league_round_ended, season_id=season.id, division=division, round=number
    )


def _round_due(season: Season, made: list[Game], current: int, now: datetime) -> bool:
    if current == 0 or season.pacing == "all":
        return True
    if all(g.status == GameStatus.FINISHED for g in made if g.round == current):
        return True
    return season.round_days is not None and now >= round_start(season, current + 1)


def round_start(season: Season, round_number: int) -> datetime:
    """The date a round starts at the latest (with `round_days`)."""
    assert season.round_days is not None
    return season.started_at + timedelta(days=season.round_days * (round_number - 1))


def _create_round(session: Session, season: Season, division: int, round_number: int) -> list[Game]:
    league = season.league
    places = {place.id: place for place in season.entrants}
    games = []
    for number, seating in enumerate(season.schedule[str(division)][round_number - 1], start=1):
        seats = [_seat_spec(places[place_id], league.stand_in) for place_id in seating]
        game = create_game(
            session,
            None,
            league.ruleset,
            seats,
            options=league.options,
            version=season.ruleset_version,
            seed=secrets.token_hex(16),
            time_control=league_time_control(league),
            title=stored_title(season, division, round_number, number),
            place=(season, division, round_number, number),
            stand_in=league.stand_in,
        )
        games.append(game)
    return games


def _seat_spec(place: SeasonEntrant, stand_in: str) -> SeatSpec:
    """Who sits for the entrant: its player, or a bot of the league's
    stand-in level in its name once it withdrew."""
    if place.withdrawn_at is not None or place.user is None:
        return SeatSpec(bot=stand_in, entrant=place.id, withdrawn=True, name=place.name)
    return SeatSpec(user=place.user, entrant=place.id)


def game_title(season: Season, division: int, round_number: int, number: int) -> str:
    """Like "Club – Season 2 – Round 3 – Game 4" (with the division when there
    are several), in the current language: the game keeps it in English
    (`stored_title`), pages rebuild it for their reader (`shown_title`)."""
    where = {
        "league": season.league.name,
        "season": season.number,
        "division": division,
        "round": round_number,
        "game": number,
    }
    if season.league.divisions > 1:
        return _(
            "%(league)s – Season %(season)d – Division %(division)d – Round %(round)d"
            " – Game %(game)d",
            **where,
        )
    return _("%(league)s – Season %(season)d – Round %(round)d – Game %(game)d", **where)


def stored_title(season: Season, division: int, round_number: int, number: int) -> str:
    """The title a league game keeps: in English, whoever started the season."""
    with in_language(None):
        return game_title(season, division, round_number, number)


def shown_title(game: Game) -> str:
    """A game's title for the reader: a league game's in their language."""
    if game.season is None or game.division is None or game.round is None or game.number is None:
        return game.title
    return game_title(game.season, game.division, game.round, game.number)


def named(game: Game) -> str:
    """How mails, digests and calendars name a game: its title for the reader;
    games made before titles (migration 0011) by their game and id."""
    return shown_title(game) or f"{ruleset_title(game.ruleset)} {game.public_id}"


def season_title(season: Season) -> str:
    """Like "Club – Season 2", in the current language."""
    return _("%(league)s – Season %(season)d", league=season.league.name, season=season.number)


@dataclass(frozen=True)
class Fixture:
    """A game of the schedule: made once its round started (`game`), else
    still the entrants it will seat, by name, and the title it will have."""

    round: int
    number: int
    title: str
    places: tuple[int, ...]  # season entrant ids in seat order
    names: tuple[str, ...]
    game: Game | None


def division_rounds(season: Season, division: int) -> list[list[Fixture]]:
    """The division's rounds, every game in them, made or still to come."""
    names = {place.id: place.name for place in season.entrants}
    made = {(g.round, g.number): g for g in season.games if g.division == division}
    return [
        [
            Fixture(
                round_number,
                number,
                game_title(season, division, round_number, number),
                tuple(seating),
                tuple(names[place] for place in seating),
                made.get((round_number, number)),
            )
            for number, seating in enumerate(games, start=1)
        ]
        for round_number, games in enumerate(season.schedule.get(str(division), []), start=1)
    ]


def rounds_in(season: Season, division: int) -> int:
    return len(season.schedule.get(str(division), []))


def _all_played(season: Season) -> bool:
    made = len(season.games)
    planned = sum(len(round_) for rounds in season.schedule.values() for round_ in rounds)
    return made == planned and all(g.status == GameStatus.FINISHED for g in season.games)


def _finish(session: Session, season: Season, now: datetime) -> None:
    """The season is over: its tables are final, and between divisions the top
    `promotion` move up and the bottom `promotion` move down for the next one.
    Entrants who withdrew go down like the others; those who left the league
    are not in the next season anyway."""
    season.finished_at = now
    league = season.league
    moves = league.promotion
    for division in sorted({place.division for place in season.entrants}):
        rows = division_table(session, season, division)
        if not moves:
            continue
        places = [row.place for row in rows]
        up = places[:moves] if division > 1 else []
        down = places[max(len(up), len(places) - moves) :] if division < league.divisions else []
        for place in up:
            place.entrant.division = division - 1
        for place in down:
            place.entrant.division = division + 1
    notices.season_over(session, season)


def due_rounds(session: Session, now: datetime) -> None:
    """For the sweep: move every running season on (rounds whose date has
    come, or whose games ended while no receiver heard it); commits each."""
    ids = session.scalars(select(Season.id).where(Season.finished_at.is_(None))).all()
    for season_id in ids:
        advance(session, lock_season(session, season_id), now)
        session.commit()
