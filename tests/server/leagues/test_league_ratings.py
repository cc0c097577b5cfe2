"""League games are rated like casual games between people: an entrant who
withdrew forfeits (whether it resigned a game under way or a bot sat down for
it from the start), and bots are left out."""

from __future__ import annotations

from sqlalchemy import select

from pbem.leagues.seasons import start_season
from pbem.leagues.withdrawal import withdraw
from pbem.models import GameStatus, RatingChange
from tests.server.leagues.season_play import league_of, play_out


def test_a_withdrawn_entrants_games_are_forfeits_and_its_bot_is_left_out(session, make_user):
    _, league, players = league_of(session, make_user, ["Ann", "Bob", "Cem", "Dan"])
    league.players_per_game = 3  # 3 rounds of one game; everyone plays two or three
    season = start_season(session, league, pacing="rounds")
    session.commit()
    [first] = season.games
    dan = next(p for p in players if p.id == first.seats[-1].user_id)  # plays in round 1
    dans = next(p for p in season.entrants if p.user_id == dan.id)
    withdraw(session, season, dans.id, dan)
    session.commit()
    while season.finished_at is None:
        for game in [g for g in season.games if g.status == GameStatus.ACTIVE]:
            play_out(session, game, next(s.user_id for s in game.seats if s.bot is None))
        session.refresh(season)

    kinds = set()
    for game in season.games:
        assert game.created_by_id is None
        changes = session.scalars(select(RatingChange).where(RatingChange.game_id == game.id))
        rated = {change.user_id: change for change in changes}
        people = {seat.user_id for seat in game.seats if seat.user_id is not None}
        assert set(rated) == people  # Dan's bot, where it sat from the start, is left out
        dans_seat = next((s for s in game.seats if s.entrant_id == dans.id), None)
        bot_from_start = dans_seat is not None and dans_seat.user_id is None
        for change in rated.values():
            assert change.forfeit == (dans_seat is not None)
            assert change.against_bots == bot_from_start
        if dans_seat is not None:
            kinds.add("bot from the start" if bot_from_start else "resigned")
            assert dans_seat.resigned_at is not None
    assert kinds == {"bot from the start", "resigned"}
