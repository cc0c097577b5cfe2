"""League pages: a league (its settings, organisers, entrants and seasons) and
a season (its divisions' tables and games). Readable by anyone signed in: a
club's table is not secret; addresses of invitees are shown to organisers only."""

from __future__ import annotations

from flask import abort, render_template

from pbem.leagues.leagues import find_league, is_organiser, league_time_control
from pbem.leagues.tables import division_table
from pbem.web.common import db, me, page_blueprint, signed_in

bp = page_blueprint("leagues")


@bp.route("/leagues/<league_id>")
@signed_in
def league(league_id: str):  # type: ignore[no-untyped-def]
    found = find_league(db(), league_id)
    return render_template(
        "league.html",
        league=found,
        organiser=is_organiser(found, me()),
        time_control=league_time_control(found),
    )


@bp.route("/leagues/<league_id>/seasons/<int:number>")
@signed_in
def season(league_id: str, number: int):  # type: ignore[no-untyped-def]
    found = find_league(db(), league_id)
    chosen = next((s for s in found.seasons if s.number == number), None)
    if chosen is None:
        abort(404)
    divisions = sorted({place.division for place in chosen.entrants})
    tables = {d: division_table(db(), chosen, d) for d in divisions}
    return render_template("season.html", league=found, season=chosen, tables=tables)
