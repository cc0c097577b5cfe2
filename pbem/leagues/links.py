"""Links to league pages for mails and API answers (pbem.web.leagues)."""

from __future__ import annotations

from pbem.models import League, Season
from pbem.services.links import absolute_url


def league_link(league: League) -> str:
    return absolute_url("leagues.league", league_id=league.public_id)


def season_link(season: Season) -> str:
    return absolute_url("leagues.season", league_id=season.league.public_id, number=season.number)
