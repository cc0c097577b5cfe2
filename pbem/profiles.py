"""A player's public profile, shared by the page and the API: what any other
player may see (name, local time, ratings, leagues, games), never an address
or a setting."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.i18n import current_language
from pbem.leagues.player_leagues import LeagueStanding, leagues_of
from pbem.models import Game, GameStatus, RatingChange, User, utcnow
from pbem.services.errors import NotFound
from pbem.services.game_lists import Page, played_by
from pbem.services.ratings import RatingHistory, conservative, places, ratings_of
from pbem.services.results import game_result

# A finished game's result is read from the game (no replay), so a page may be
# long; games that ended before results were kept are replayed until
# `pbem ratings rebuild` stores theirs.
PROFILE_PAGE_SIZE = 50


@dataclass(frozen=True)
class PlayedGame:
    """A game on a profile, from the player's side."""

    game: Game
    outcome: str  # "won", "2nd of 3", "abandoned"...; "" while it goes on
    change: RatingChange | None  # what it did to the player's rating, if rated

    @property
    def rating_delta(self) -> float | None:
        """How much the conservative rating moved, as profiles show it."""
        if self.change is None:
            return None
        before = conservative(self.change.mu_before, self.change.sigma_before)
        return self.change.rating - before


@dataclass(frozen=True)
class Profile:
    user: User
    local_time: datetime  # now, in the player's zone
    ratings: list[RatingHistory]
    leagues: list[LeagueStanding]
    active: Page
    active_games: list[PlayedGame]
    finished: Page
    finished_games: list[PlayedGame]


def profile(
    session: Session, user_id: int, active_page: int = 1, finished_page: int = 1
) -> Profile:
    """The profile of the user with this id; NotFound if there is none."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(_("no such player"))
    pages = {GameStatus.ACTIVE: active_page, GameStatus.FINISHED: finished_page}
    played = played_by(session, user, pages, PROFILE_PAGE_SIZE)
    active, finished = played[GameStatus.ACTIVE], played[GameStatus.FINISHED]
    changes = _changes(session, user, finished.games)
    return Profile(
        user=user,
        local_time=utcnow().astimezone(ZoneInfo(user.time_zone)),
        ratings=ratings_of(session, user.id),
        leagues=leagues_of(session, user),
        active=active,
        active_games=[PlayedGame(game, "", None) for game in active.games],
        finished=finished,
        finished_games=[
            PlayedGame(game, outcome_for(game, user.id), changes.get(game.id))
            for game in finished.games
        ],
    )


def _changes(session: Session, user: User, games: list[Game]) -> dict[int, RatingChange]:
    rows = session.scalars(
        select(RatingChange).where(
            RatingChange.user_id == user.id, RatingChange.game_id.in_([g.id for g in games])
        )
    )
    return {change.game_id: change for change in rows}


def outcome_for(game: Game, user_id: int) -> str:
    """How the game ended for the player, in words: 'won', 'tied 2nd of 4',
    '3rd of 3, left the game', 'abandoned'."""
    if game.abandoned_at is not None:
        return _("abandoned")
    result = game_result(game)
    seat = next(seat for seat in game.seats if seat.user_id == user_id)
    if result is None:  # a finished game always has one; say so rather than fail the page
        return _("no result")
    ranks = places(result)
    place = ranks[seat.position]
    tied = sum(1 for other in ranks.values() if other == place) > 1
    left = seat.has_left
    if place == 1:
        if tied:
            return _("shared the win, left the game") if left else _("shared the win")
        return _("won, left the game") if left else _("won")
    where = {"place": ordinal(place), "players": len(game.seats)}
    if tied:
        if left:
            return _("tied %(place)s of %(players)d, left the game", **where)
        return _("tied %(place)s of %(players)d", **where)
    if left:
        return _("%(place)s of %(players)d, left the game", **where)
    return _("%(place)s of %(players)d", **where)


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd in English; 1er, 2e in French; 1., 2. in Czech."""
    if current_language() == "en":
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(
            number % 10 if number % 100 not in (11, 12, 13) else 0
        )
        return f"{number}{suffix or 'th'}"
    if number == 1:
        # Translators: the ordinal "1st" (French "1er", Czech "1.").
        return _("%(number)dst", number=number)
    # Translators: an ordinal from 2 up, like "2nd", "3rd", "4th" (French "2e", Czech "2.").
    return _("%(number)dth", number=number)
