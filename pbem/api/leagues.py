"""Leagues through the API: making one, entrants and organisers, seasons, the
standings, and withdrawing or replacing an entrant. Anyone with a token may
read a league (a club's table is not secret); invited addresses are shown to
its organisers only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.views import MethodView
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema

from pbem.api.auth import api_user, api_user_key, no_api_user
from pbem.api.games import service_error
from pbem.api.league_schemas import (
    DivisionPlacementSchema,
    EmailSchema,
    InvitationSchema,
    LeagueCreateSchema,
    LeagueSchema,
    SeasonSchema,
    SeasonStartedSchema,
    SeasonStartSchema,
    StandingsQuerySchema,
    StandingsSchema,
)
from pbem.api.pages import View
from pbem.api.schemas import StandInSchema
from pbem.db import request_session
from pbem.i18n import invitee_language
from pbem.leagues import leagues as league_service
from pbem.leagues.balance import division_balance
from pbem.leagues.links import invitation_link
from pbem.leagues.seasons import division_rounds, shown_title, start_season
from pbem.leagues.tables import TableRow, division_table
from pbem.leagues.withdrawal import leave_league, replace, withdraw
from pbem.models import Entrant, League, Season, User
from pbem.numbers import ID_CONVERTER
from pbem.ratelimit import Rate, limited
from pbem.services.errors import NotFound, ServiceError
from pbem.services.time_control import TimeControl

blp = Blueprint("api_leagues", __name__, description="Leagues, their seasons and standings")
blp.errorhandler(ServiceError)(service_error)

LEAGUE_URL = "/<league_id>"
SEASON_URL = f"{LEAGUE_URL}/seasons/<{ID_CONVERTER}:season>"
PLACE_URL = f"{SEASON_URL}/entrants/<{ID_CONVERTER}:entrant>"


def _documented(operation_id: str, answers: dict[int, str]) -> Callable[[View], View]:
    """The operation's id and its error answers, each with the shape every error has."""

    def wrap(method: View) -> View:
        method = blp.doc(operationId=operation_id)(method)
        for code, description in {401: "No valid API token", **answers}.items():
            method = blp.alt_response(code, schema=ErrorSchema, description=description)(method)
        return method

    return wrap


def league_json(league: League, user: User) -> dict[str, Any]:
    organiser = league_service.is_organiser(league, user)
    return {
        "id": league.public_id,
        "name": league.name,
        "ruleset": league.ruleset,
        "players_per_game": league.players_per_game,
        "options": league.options,
        "time_control": league.time_control,
        "points_table": league.points_table,
        "open": league.open,
        "divisions": league.divisions,
        "promotion": league.promotion,
        "stand_in": league.stand_in,
        "organisers": [{"id": o.user.id, "name": o.user.name} for o in league.organisers],
        "entrants": [_entrant_json(e, organiser) for e in league.entrants],
        "seasons": [
            {"id": s.number, "started_at": s.started_at, "finished_at": s.finished_at}
            for s in league.seasons
        ],
        "organiser": organiser,
    }


def _entrant_json(entrant: Entrant, organiser: bool) -> dict[str, Any]:
    status = "left" if entrant.left_at else "entered" if entrant.user_id else "invited"
    shown = {"email": entrant.invited_email} if organiser else {}
    name = entrant.user.name if entrant.user else "invited"
    return {
        "id": entrant.id,
        "player": entrant.user_id,
        "name": name,
        "division": entrant.division,
        "status": status,
        **shown,
    }


def _league_answer(league: League) -> dict[str, Any]:
    """Commit and show the league."""
    request_session().commit()
    return league_json(league, api_user())


def _organised(league_id: str) -> League:
    return league_service.organised_league(request_session(), league_id, api_user())


@blp.route("")
class Leagues(MethodView):
    @blp.arguments(LeagueCreateSchema)
    @blp.response(201, LeagueSchema)
    @_documented("createLeague", {422: "Unknown game, bad options, players or points table"})
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Make a league; you are its first organiser"""
        clock = body["time_control"]
        league = league_service.create_league(
            request_session(),
            api_user(),
            body["name"],
            body["ruleset"],
            body["players_per_game"],
            body["options"],
            time_control=TimeControl(**clock) if clock else None,
            points=body["points_table"],
            open_to_all=body["open"],
            divisions=body["divisions"],
            promotion=body["promotion"],
            stand_in=body["stand_in"],
        )
        return _league_answer(league)


@blp.route(LEAGUE_URL)
class LeagueResource(MethodView):
    @blp.response(200, LeagueSchema)
    @_documented("getLeague", {404: "No such league"})
    def get(self, league_id: str) -> dict[str, Any]:
        """A league: its settings, organisers, entrants and seasons"""
        return league_json(league_service.find_league(request_session(), league_id), api_user())


@blp.route(f"{LEAGUE_URL}/entrants")
@limited(  # each league invitation mails a stranger
    Rate(
        "PBEM_INVITATION_LIMIT",
        lazy_gettext("You have sent too many invitations"),
        key=api_user_key,
        methods=("POST",),
        exempt_when=no_api_user,
    )
)
class Entrants(MethodView):
    @blp.arguments(InvitationSchema)
    @blp.response(201, LeagueSchema)
    @_documented(
        "inviteEntrant",
        {
            403: "You do not organise the league",
            404: "No such league",
            409: "The address is invited already",
            422: "Not an e-mail address",
            429: "Too many invitations (PBEM_INVITATION_LIMIT)",
        },
    )
    def post(self, body: dict[str, str], league_id: str) -> dict[str, Any]:
        """Invite the person at an address; they are mailed a link that signs them in,
        once, to join"""
        league = _organised(league_id)
        league_service.invite_entrant(
            request_session(),
            league,
            api_user(),
            body["email"],
            invitation_link(league, body["email"]),
            invitee_language(body.get("language")),
        )
        return _league_answer(league)


@blp.route(f"{LEAGUE_URL}/entrants/<{ID_CONVERTER}:entrant>/division")
class EntrantDivision(MethodView):
    @blp.arguments(DivisionPlacementSchema)
    @blp.response(200, LeagueSchema)
    @_documented(
        "setEntrantDivision",
        {
            403: "You do not organise the league",
            404: "No such league or entrant",
            422: "Not one of the league's divisions",
        },
    )
    def post(self, body: dict[str, int], league_id: str, entrant: int) -> dict[str, Any]:
        """Place an entrant (its `id` in the league's entrants) in a division for the
        seasons to come: the first season's divisions, or a correction between seasons"""
        league = _organised(league_id)
        league_service.set_division(league, entrant, body["division"])
        return _league_answer(league)


@blp.route(f"{LEAGUE_URL}/organisers")
class Organisers(MethodView):
    @blp.arguments(EmailSchema)
    @blp.response(201, LeagueSchema)
    @_documented(
        "addLeagueOrganiser",
        {
            403: "You do not organise the league",
            404: "No such league",
            409: "The address organises the league already",
            422: "Not an e-mail address",
        },
    )
    def post(self, body: dict[str, str], league_id: str) -> dict[str, Any]:
        """Make the person at an address an organiser, with every power of yours"""
        league = _organised(league_id)
        league_service.add_organiser(request_session(), league, body["email"])
        return _league_answer(league)


@blp.route(f"{LEAGUE_URL}/stand-in")
class StandIn(MethodView):
    @blp.arguments(StandInSchema)
    @blp.response(200, LeagueSchema)
    @_documented(
        "chooseLeagueStandIn",
        {403: "You do not organise the league", 404: "No such league", 422: "Unknown bot level"},
    )
    def post(self, body: dict[str, str], league_id: str) -> dict[str, Any]:
        """Choose the level of the bots that stand in for absent players in the
        league's games, those under way included, and play for entrants who withdrew"""
        league = _organised(league_id)
        league_service.choose_stand_in(request_session(), league, body["level"])
        return _league_answer(league)


@blp.route(f"{LEAGUE_URL}/join")
class Join(MethodView):
    @blp.response(200, LeagueSchema)
    @_documented(
        "joinLeague",
        {
            403: "The league takes only the players its organisers invite",
            404: "No such league",
            409: "You are an entrant already",
        },
    )
    def post(self, league_id: str) -> dict[str, Any]:
        """Enter the league: accept your invitation, or join an open league;
        newcomers start in the lowest division and play from the next season"""
        entrant = league_service.join_league(request_session(), league_id, api_user())
        return _league_answer(entrant.league)


@blp.route(f"{LEAGUE_URL}/leave")
class Leave(MethodView):
    @blp.response(200, LeagueSchema)
    @_documented("leaveLeague", {404: "No such league, or you are not an entrant"})
    def post(self, league_id: str) -> dict[str, Any]:
        """Leave the league; bots play your games of the season under way, which you lose"""
        league = league_service.find_league(request_session(), league_id)
        leave_league(request_session(), league, api_user())
        return _league_answer(league)


@blp.route(f"{LEAGUE_URL}/seasons")
class Seasons(MethodView):
    @blp.arguments(SeasonStartSchema, required=False)
    @blp.response(201, SeasonStartedSchema)
    @_documented(
        "startSeason",
        {
            403: "You do not organise the league",
            404: "No such league",
            409: "A season is still going on",
            422: "Too few entrants in a division, or bad legs, pacing or days",
        },
    )
    def post(self, body: dict[str, Any], league_id: str) -> dict[str, Any]:
        """Start the league's next season with its entrants as they stand: the
        schedule is made and the first games (all of them with pacing all) start"""
        league = _organised(league_id)
        session = request_session()
        season = start_season(session, league, **body)
        session.commit()
        return {"id": season.number, "games": [g.public_id for g in season.games]}


@blp.route(SEASON_URL)
class SeasonResource(MethodView):
    @blp.response(200, SeasonSchema)
    @_documented("getSeason", {404: "No such league or season"})
    def get(self, league_id: str, season: int) -> dict[str, Any]:
        """A season: per division the balance of its schedule, its rounds (games
        not started yet by their entrants) and its table"""
        api_user()
        league = league_service.find_league(request_session(), league_id)
        chosen = league_service.season_of(league, season)
        return {
            "id": chosen.number,
            "number": chosen.number,
            "started_at": chosen.started_at,
            "finished_at": chosen.finished_at,
            "legs": chosen.legs,
            "pacing": chosen.pacing,
            "round_days": chosen.round_days,
            "divisions": [
                _division_json(chosen, int(key)) for key in sorted(chosen.schedule, key=int)
            ],
        }


def _division_json(season: Season, division: int) -> dict[str, Any]:
    balance = division_balance(season, division)
    return {
        "division": division,
        "balance": {
            "games": list(balance.games),
            "meetings": list(balance.meetings),
            "seats": list(balance.seats),
            "text": balance.describe(),
        },
        "rounds": _rounds_json(season, division),
        "standings": _rows_json(season, division),
    }


def _rounds_json(season: Season, division: int) -> list[list[dict[str, Any]]]:
    """Every round's games; those not started yet by the entrants they will seat."""
    return [
        [
            {
                "game": fixture.game.public_id if fixture.game else None,
                "title": shown_title(fixture.game) if fixture.game else fixture.title,
                "status": fixture.game.status if fixture.game else "scheduled",
                "seats": [seat.name for seat in fixture.game.seats]
                if fixture.game
                else list(fixture.names),
            }
            for fixture in round_
        ]
        for round_ in division_rounds(season, division)
    ]


def _rows_json(season: Season, division: int) -> list[dict[str, Any]]:
    public = {game.id: game.public_id for game in season.games}
    return [_row_json(row, public) for row in division_table(request_session(), season, division)]


def _row_json(table_row: TableRow, public: dict[int, str]) -> dict[str, Any]:
    place, row = table_row.place, table_row.row
    return {
        "entrant": place.id,
        "player": place.user_id,
        "name": place.name,
        "rank": row.rank,
        "place": row.place,
        "played": row.played,
        "points": float(row.points),
        "score": float(row.score),
        "rating": table_row.rating,
        "withdrawn": table_row.withdrawn,
        "games": [public[game_id] for game_id in row.games],
    }


@blp.route(f"{LEAGUE_URL}/standings")
class Standings(MethodView):
    @blp.arguments(StandingsQuerySchema, location="query")
    @blp.response(200, StandingsSchema)
    @_documented("getStandings", {404: "No such league, season or division", 422: "Bad query"})
    def get(self, query: dict[str, int], league_id: str) -> dict[str, Any]:
        """A division's table, best first: the season going on (else the last
        one) and division 1 unless the query names others"""
        api_user()
        league = league_service.find_league(request_session(), league_id)
        if "season" in query:
            season = league_service.season_of(league, query["season"])
        elif league.seasons:
            season = league_service.current_season(league) or league.seasons[-1]
        else:
            raise NotFound(_("the league has had no season yet"))
        division = query["division"]
        if str(division) not in season.schedule:
            raise NotFound(
                _(
                    "season %(season)d has no division %(division)d",
                    season=season.number,
                    division=division,
                )
            )
        return _standings_json(season, division)


def _standings_json(season: Season, division: int) -> dict[str, Any]:
    return {
        "season": season.number,
        "division": division,
        "rows": _rows_json(season, division),
    }


@blp.route(f"{PLACE_URL}/withdraw")
class Withdraw(MethodView):
    @blp.response(200, StandingsSchema)
    @_documented(
        "withdrawEntrant",
        {
            403: "Neither an organiser nor the row's player",
            404: "No such league, season or entrant",
            409: "The season is over, or the entrant withdrew already",
        },
    )
    def post(self, league_id: str, season: int, entrant: int) -> dict[str, Any]:
        """Withdraw an entrant from the season (its player, or an organiser): bots
        play its games to the end and it loses them; answers its division's table"""
        session = request_session()
        league = league_service.find_league(session, league_id)
        played = league_service.season_of(league, season)
        place = withdraw(session, played, entrant, api_user())
        session.commit()
        return _standings_json(played, place.division)


@blp.route(f"{PLACE_URL}/replace")
class Replace(MethodView):
    @blp.arguments(InvitationSchema)
    @blp.response(200, StandingsSchema)
    @_documented(
        "replaceEntrant",
        {
            403: "You do not organise the league",
            404: "No such league, season or entrant",
            409: "The season is over, the entrant withdrew, or the address plays already",
            422: "Not an e-mail address",
        },
    )
    def post(
        self, body: dict[str, str], league_id: str, season: int, entrant: int
    ) -> dict[str, Any]:
        """Give an entrant's place (its points and games under way) to the person at
        an address, who is invited by mail; answers its division's table"""
        league = _organised(league_id)
        session = request_session()
        played = league_service.season_of(league, season)
        language = invitee_language(body.get("language"))
        place = replace(session, played, entrant, api_user(), body["email"], language)
        session.commit()
        return _standings_json(played, place.division)
