"""The balance a season's schedule reached in one division (games per entrant,
meetings per pair, seats per entrant), as the season page states it."""

from __future__ import annotations

from pbem.leagues.schedule import Balance, Schedule
from pbem.models import Season


def division_balance(season: Season, division: int) -> Balance:
    rounds = season.schedule[str(division)]
    ids = sorted({place for round_ in rounds for game in round_ for place in game})
    number = {place: index for index, place in enumerate(ids)}
    numbered = tuple(
        tuple(tuple(number[place] for place in game) for game in round_) for round_ in rounds
    )
    return Schedule(len(ids), season.league.players_per_game, season.legs, numbered).balance()
