"""A season's results to take away: each division's standings as CSV or JSON,
and the records of its finished games as one zip, for the pages and the API.

Points and scores are numbers (4.5), as the API gives them, never fractions
a spreadsheet reads as dates; the CSV says "yes" or "no"; the zip holds only
the records the requester may have (pbem.services.records)."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from sqlalchemy.orm import Session

from pbem.csv_cells import csv_text
from pbem.leagues.tables import division_table
from pbem.models import Game, Season, User
from pbem.services.records import record_refusal
from pbem.services.replay import engine_game

COLUMNS = ("division", "place", "player", "played", "points", "score", "rating", "withdrawn")


def standings_rows(session: Session, season: Season) -> list[dict[str, Any]]:
    """Every division's table, division by division, best first."""
    rows = []
    for division in sorted({place.division for place in season.entrants}):
        for line in division_table(session, season, division):
            rows.append(
                {
                    "division": division,
                    "place": line.row.place,
                    "player": line.place.name,
                    "played": line.row.played,
                    "points": float(line.row.points),
                    "score": float(line.row.score),
                    "rating": None if line.rating is None else round(line.rating, 1),
                    "withdrawn": line.withdrawn,
                }
            )
    return rows


def standings_csv(session: Session, season: Season) -> str:
    rows = standings_rows(session, season)
    return csv_text(COLUMNS, (_csv_cells(row) for row in rows))


def _csv_cells(row: dict[str, Any]) -> dict[str, Any]:
    """Numbers as a spreadsheet reads them (4.5), booleans as words."""
    return {
        **row,
        "points": f"{row['points']:g}",
        "score": f"{row['score']:g}",
        "rating": "" if row["rating"] is None else row["rating"],
        "withdrawn": "yes" if row["withdrawn"] else "no",
    }


def standings_json(session: Session, season: Season) -> dict[str, Any]:
    return {
        "league": season.league.name,
        "season": season.number,
        "finished": season.finished_at is not None,
        "standings": standings_rows(session, season),
    }


def records_zip(season: Season, user: User | None) -> bytes:
    """`season-<n>.zip`'s bytes: one engine record per finished game the user may have."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for game in season.games:
            if record_refusal(game, user) is None:
                record = engine_game(game).to_record()
                archive.writestr(record_name(game), record.dumps())
    return out.getvalue()


def records_zip_name(season: Season) -> str:
    return f"season-{season.number}.zip"


def record_name(game: Game) -> str:
    """`<title or ruleset>-<public id>.json`, the title made safe for a file name."""
    stem = re.sub(r"[^\w.-]+", "-", game.title or game.ruleset).strip("-") or game.ruleset
    return f"{stem}-{game.public_id}.json"
