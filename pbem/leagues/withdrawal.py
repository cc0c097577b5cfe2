"""An entrant leaving a season: withdrawn (bots play its games to the end and
its results count as losses, since a seat that was left ranks last), or
replaced by another player who takes over its place, its table row and its
games under way."""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy.orm import Session

from pbem.db import lock_league, lock_place
from pbem.leagues import notices
from pbem.leagues.leagues import active_entrant, current_season, is_organiser
from pbem.models import Entrant, Game, GameStatus, League, Season, SeasonEntrant, Seat, User, utcnow
from pbem.services import organiser as game_organiser
from pbem.services.accounts import invited_user
from pbem.services.errors import Conflict, Forbidden, NotFound
from pbem.services.resign import resign


def season_place(season: Season, place_id: int) -> SeasonEntrant:
    for place in season.entrants:
        if place.id == place_id:
            return place
    raise NotFound(_("no such entrant in this season"))


def withdraw(session: Session, season: Season, place_id: int, by: User) -> SeasonEntrant:
    """The entrant leaves the season (asked by its player, or done by an
    organiser): every game of it under way goes on with a bot in its seat,
    and the rounds still to come seat a bot for it. Under the place's lock,
    so a second withdrawal or a replacement at the same moment finds it done."""
    place = _locked_place(session, season, place_id)
    if place.user_id != by.id and not is_organiser(season.league, by):
        raise Forbidden(_("only the entrant's player or an organiser may withdraw it"))
    _require_going_on(season, place)
    place.withdrawn_at = utcnow()
    for game, seat in _seats_in_play(season, place):
        if seat.user_id == by.id:
            resign(session, seat)
        else:
            game_organiser.hand_to_bot(session, by, game.public_id, seat.position)
    return place


def leave_league(session: Session, league: League, user: User) -> None:
    """The player leaves the league, withdrawing from the season under way.
    Locks in the order every league writer keeps: the league, then the place,
    and only then a write to the entrant's row (a replacement holding the
    place may be writing it)."""
    league = lock_league(session, league.id)
    entrant = active_entrant(league, user)
    if entrant is None:
        raise NotFound(_("you are not an entrant of this league"))
    season = current_season(league)
    place = (
        next(
            (p for p in season.entrants if p.entrant_id == entrant.id and p.withdrawn_at is None),
            None,
        )
        if season is not None
        else None
    )
    if season is not None and place is not None:
        withdraw(session, season, place.id, user)
    entrant.left_at = utcnow()


def replace(
    session: Session,
    season: Season,
    place_id: int,
    organiser: User,
    email: str,
    language: str | None = None,
) -> SeasonEntrant:
    """The player at `email` takes over the entrant's place for the rest of the
    season (its points so far included) and enters the league in its
    division; the player replaced leaves the league. Under the place's lock.
    Each of the two gets one mail, whatever the number of games under way
    (notices.replaced); `language`: the newcomer's (invited_user)."""
    place = _locked_place(session, season, place_id)
    _require_going_on(season, place)
    newcomer = invited_user(session, email, language)
    if any(p.user_id == newcomer.id for p in season.entrants):
        raise Conflict(_("%(email)s plays in this season already", email=newcomer.email))
    league = season.league
    old = place.entrant
    # Their entry, or the invitation to their address they have not taken up yet.
    entrant = next(
        (
            e
            for e in league.entrants
            if e.user_id == newcomer.id or (e.user_id is None and e.invited_email == newcomer.email)
        ),
        None,
    )
    if entrant is None:
        entrant = Entrant(league=league)
        session.add(entrant)
    entrant.user_id, entrant.invited_email = newcomer.id, newcomer.email
    entrant.division, entrant.joined_at, entrant.left_at = old.division, utcnow(), None
    old.left_at = utcnow()
    old_user_id, old_name = place.user_id, place.name
    if old_user_id is not None:
        notices.forget_unsent(session, old_user_id, season)
    games = _seats_in_play(season, place)
    place.entrant, place.user_id, place.name = entrant, newcomer.id, newcomer.name
    for game, seat in games:
        game_organiser.hand_over(session, organiser, game.public_id, seat.position, newcomer.email)
    notices.replaced(session, place, organiser, old_user_id, old_name)
    return place


def _locked_place(session: Session, season: Season, place_id: int) -> SeasonEntrant:
    """The season's place, locked and as it is now, with its entrant's row."""
    season_place(season, place_id)  # NotFound for a place of another season
    place = lock_place(session, place_id)
    session.refresh(place.entrant)
    return place


def _require_going_on(season: Season, place: SeasonEntrant) -> None:
    if season.finished_at is not None:
        raise Conflict(_("the season is over"))
    if place.withdrawn_at is not None:
        raise Conflict(_("%(name)s has withdrawn from the season already", name=place.name))


def _seats_in_play(season: Season, place: SeasonEntrant) -> list[tuple[Game, Seat]]:
    """The entrant's games under way where its player still holds the seat."""
    found = []
    for game in season.games:
        if game.status != GameStatus.ACTIVE:
            continue
        for seat in game.seats:
            if seat.entrant_id == place.id and seat.is_playing:
                found.append((game, seat))
    return found
