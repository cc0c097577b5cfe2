"""Player profiles: name, local time, ratings with their history, and games.
For signed-in players: a profile lists a player's games, whose links are
otherwise known to their players and those they were given to only."""

from __future__ import annotations

from typing import Any

from flask import render_template, request, url_for

from pbem.numbers import ID_CONVERTER
from pbem.profiles import profile
from pbem.web.common import db, page_blueprint, signed_in
from pbem.web.lobby import titles
from pbem.web.rating_plot import rating_plot

bp = page_blueprint("profiles")


@bp.route(f"/players/<{ID_CONVERTER}:user_id>")
@signed_in
def player(user_id: int) -> str:
    shown = profile(
        db(),
        user_id,
        active_page=request.args.get("active", 1, type=int),
        finished_page=request.args.get("finished", 1, type=int),
    )
    return render_template(
        "profile.html",
        profile=shown,
        titles=titles(),
        plot=rating_plot,
        page_url=lambda section, number: _page_url(user_id, section, number),
    )


def _page_url(user_id: int, section: str, number: int) -> str:
    """This profile with one list turned to page `number`, the other kept."""
    args: dict[str, Any] = {**request.args.to_dict(), section: number}
    return url_for("profiles.player", user_id=user_id, **args, _anchor=section)
