"""Player profiles through the API: what any player may see of another
(pbem.profiles), never an address or a setting."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema
from sqlalchemy import select

from pbem.api.auth import api_user
from pbem.api.games import service_error
from pbem.api.schemas import PlayerQuerySchema, PlayerSchema
from pbem.db import request_session
from pbem.leagues.player_leagues import LeagueStanding
from pbem.leagues.seasons import shown_title
from pbem.models import Game
from pbem.numbers import ID_CONVERTER
from pbem.profiles import PlayedGame, profile
from pbem.services.errors import ServiceError
from pbem.services.game_lists import Page
from pbem.services.ratings import RatingHistory

blp = Blueprint("api_players", __name__, description="Player profiles and ratings")
blp.errorhandler(ServiceError)(service_error)


@blp.route(f"/<{ID_CONVERTER}:user_id>")
class Player(MethodView):
    @blp.doc(operationId="getPlayer")
    @blp.arguments(PlayerQuerySchema, location="query")
    @blp.response(200, PlayerSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(404, schema=ErrorSchema, description="No such player")
    def get(self, query: dict[str, int], user_id: int) -> dict[str, Any]:
        """A player's profile: name, local time, ratings per game with their
        history, the leagues they entered with their place, games going on and
        finished games (pages of 50, newest first)"""
        api_user()
        shown = profile(request_session(), user_id, query["active_page"], query["finished_page"])
        public_ids = _public_ids(shown.ratings)
        return {
            "id": shown.user.id,
            "name": shown.user.name,
            "time_zone": shown.user.time_zone,
            "local_time": shown.local_time,
            "ratings": [
                {
                    "ruleset": history.rating.ruleset,
                    "rating": history.conservative,
                    "mu": history.rating.mu,
                    "sigma": history.rating.sigma,
                    "games": history.rating.games,
                    "history": [
                        {
                            "game": public_ids[change.game_id],
                            "at": change.rated_at,
                            "rating": change.rating,
                        }
                        for change in history.changes
                    ],
                }
                for history in shown.ratings
            ],
            "leagues": [_league_json(standing) for standing in shown.leagues],
            "active": _page_json(shown.active, shown.active_games),
            "finished": _page_json(shown.finished, shown.finished_games),
        }


def _public_ids(ratings: list[RatingHistory]) -> dict[int, str]:
    """The public ids of the games in the rating histories, in one query: a
    history has a change per rated game, and the page reads none of them."""
    ids = {change.game_id for history in ratings for change in history.changes}
    found = request_session().execute(select(Game.id, Game.public_id).where(Game.id.in_(ids)))
    return {game_id: public_id for game_id, public_id in found}


def _league_json(standing: LeagueStanding) -> dict[str, Any]:
    return {
        "id": standing.league.public_id,
        "name": standing.league.name,
        "season": standing.season.number if standing.season else None,
        "division": standing.division,
        "place": standing.place,
    }


def _page_json(page: Page, games: list[PlayedGame]) -> dict[str, Any]:
    return {
        "games": [_played_json(played) for played in games],
        "page": page.number,
        "pages": page.count,
        "total": page.total,
    }


def _played_json(played: PlayedGame) -> dict[str, Any]:
    game, change = played.game, played.change
    return {
        "id": game.public_id,
        "ruleset": game.ruleset,
        "status": game.status,
        "seats": [seat.name for seat in game.seats],
        "finished_at": game.finished_at,
        "outcome": played.outcome,
        "rating_change": played.rating_delta,
        "against_bots": change.against_bots if change else None,
        "forfeit": change.forfeit if change else None,
        "title": shown_title(game),
        "league": game.season.league.public_id if game.season else None,
        "season": game.season.number if game.season else None,
    }
