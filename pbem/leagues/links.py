"""Links to league pages for mails and API answers (pbem.web.leagues)."""

from __future__ import annotations

from pbem.models import League, Season
from pbem.services.accounts import normalise_email
from pbem.services.links import absolute_url, league_invite_token


def league_link(league: League) -> str:
    return absolute_url("leagues.league", league_id=league.public_id)


def invitation_link(league: League, email: str) -> str:
    """The link in a league invitation: it signs the invitee in, once, to join."""
    token = league_invite_token(league.public_id, normalise_email(email))
    return absolute_url("leagues.invitation", token=token)


def season_link(season: Season) -> str:
    return absolute_url("leagues.season", league_id=season.league.public_id, number=season.number)
