"""A league season's exports through the API: its standings as CSV or JSON and
its finished games' records as one zip (pbem.leagues.exports), for any user
with a token, as the season page is for anyone signed in."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema

from pbem.api.auth import api_user
from pbem.api.games import service_error
from pbem.attachments import attachment
from pbem.db import request_session
from pbem.leagues import exports
from pbem.leagues.leagues import find_season
from pbem.models import Season
from pbem.numbers import ID_CONVERTER
from pbem.services.errors import ServiceError

blp = Blueprint("api_league_exports", __name__, description="League seasons' exports")
blp.errorhandler(ServiceError)(service_error)
SEASON = f"/<league_id>/seasons/<{ID_CONVERTER}:season>"
NOT_FOUND = "No such league or season"
FILE = {"type": "string", "format": "binary"}


class SeasonExportRowSchema(ma.Schema):
    division = ma.fields.Integer()
    place = ma.fields.String(metadata={"description": 'Rank, "2=" when tied'})
    player = ma.fields.String()
    played = ma.fields.Integer()
    points = ma.fields.Float(metadata={"description": "League points: 4.5"})
    score = ma.fields.Float(metadata={"description": "Game score summed"})
    rating = ma.fields.Float(allow_none=True)
    withdrawn = ma.fields.Boolean()


class SeasonExportSchema(ma.Schema):
    league = ma.fields.String()
    season = ma.fields.Integer()
    finished = ma.fields.Boolean()
    standings = ma.fields.List(ma.fields.Nested(SeasonExportRowSchema))


@blp.route(f"{SEASON}/standings.json")
class StandingsJson(MethodView):
    @blp.doc(operationId="getSeasonStandings")
    @blp.response(200, SeasonExportSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(404, schema=ErrorSchema, description=NOT_FOUND)
    def get(self, league_id: str, season: int) -> dict[str, Any]:
        """Every division's table of the season, best first"""
        api_user()
        return exports.standings_json(request_session(), _season(league_id, season))


@blp.route(f"{SEASON}/standings.csv")
class StandingsCsv(MethodView):
    @blp.doc(operationId="getSeasonStandingsCsv")
    @blp.response(200, {"type": "string"}, content_type="text/csv", description="CSV file")
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(404, schema=ErrorSchema, description=NOT_FOUND)
    def get(self, league_id: str, season: int) -> Response:
        """The season's tables as CSV

        Columns: division, place, player, played, points, score, rating, withdrawn."""
        api_user()
        body = exports.standings_csv(request_session(), _season(league_id, season))
        return attachment(body, "text/csv", f"season-{season}-standings.csv")


@blp.route(f"{SEASON}/records.zip")
class RecordsZip(MethodView):
    @blp.doc(operationId="getSeasonRecords")
    @blp.response(200, FILE, content_type="application/zip", description="Zip file")
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(404, schema=ErrorSchema, description=NOT_FOUND)
    def get(self, league_id: str, season: int) -> Response:
        """The season's finished games' records as one zip

        One `<title>-<game id>.json` per game whose record the caller may have
        (see getGameRecord); `python -m engine replay FILE` checks each."""
        found = _season(league_id, season)
        body = exports.records_zip(found, api_user())
        return attachment(body, "application/zip", exports.records_zip_name(found))


def _season(league_id: str, number: int) -> Season:
    return find_season(request_session(), league_id, number)
