"""League mail queued in the outbox: an invitation, a season's start (each
player's games), a place given to another player (to each of the two), a
division's final table, and the weekly league digest (pbem.leagues.digest
decides when). The mail itself is written when sent, from the league as it
is then (pbem.mail.league_text)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import League, Outbox, OutboxStatus, Season, SeasonEntrant, User
from pbem.services.notifications import (
    LEAGUE_DIGEST,
    LEAGUE_INVITE,
    SEASON_OVER,
    SEASON_REPLACED,
    SEASON_START,
    SEASON_TAKE_OVER,
    queue_notice,
)


def invitation(
    session: Session,
    league: League,
    invitee: User,
    organiser: User,
    link: str,
    language: str | None = None,
) -> None:
    """`language`: the one the organiser chose for it, else their page's."""
    payload = {"league": league.public_id, "from": organiser.name, "link": link}
    queue_notice(session, LEAGUE_INVITE, payload, recipient=invitee, language=language)


def season_started(session: Session, season: Season) -> None:
    """Every player of the season hears of it, with the games they have now."""
    for entrant in season.entrants:
        if entrant.user_id is not None and entrant.withdrawn_at is None:
            _queue(session, entrant.user_id, SEASON_START, season, entrant.division)


def replaced(
    session: Session,
    place: SeasonEntrant,
    organiser: User,
    old_user_id: int | None,
    old_name: str,
) -> None:
    """The place's new player hears once of it and of its games, however many
    are under way (the mail lists them, each with its link), and the player
    replaced once that it is no longer theirs: not a mail per game."""
    season = place.season
    about = {"league": season.league.public_id, "season": season.number, "from": organiser.name}
    taken = {**about, "division": place.division, "replaces": old_name}
    assert place.user is not None  # the newcomer holds the place now
    queue_notice(session, SEASON_TAKE_OVER, taken, recipient=place.user)
    if old_user_id is not None:
        given = {**about, "new": place.name}
        queue_notice(session, SEASON_REPLACED, given, recipient=session.get_one(User, old_user_id))


def season_over(session: Session, season: Season) -> None:
    """Every player who took part gets their division's final table."""
    for entrant in season.entrants:
        if entrant.user_id is not None:
            _queue(session, entrant.user_id, SEASON_OVER, season, entrant.division)


def _queue(session: Session, user_id: int, kind: str, season: Season, division: int) -> None:
    payload = {"league": season.league.public_id, "season": season.number, "division": division}
    queue_notice(session, kind, payload, recipient=session.get_one(User, user_id))


def weekly_digest(session: Session, user_id: int) -> None:
    """Written when sent, from the user's seasons under way then."""
    queue_notice(session, LEAGUE_DIGEST, {}, recipient=session.get_one(User, user_id))


def forget_unsent(session: Session, user_id: int, season: Season) -> None:
    """A player replaced in a season: its season mails not sent yet (held by
    quiet hours, say) would find no place of theirs to write about."""
    unsent = session.scalars(
        select(Outbox).where(
            Outbox.recipient_id == user_id,
            Outbox.kind.in_((SEASON_START, SEASON_TAKE_OVER, SEASON_OVER)),
            Outbox.status == OutboxStatus.PENDING,
        )
    )
    for row in unsent:
        about = (row.payload.get("league"), row.payload.get("season"))
        if about == (season.league.public_id, season.number):
            session.delete(row)
