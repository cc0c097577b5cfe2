"""Reading the league forms (a new league, a new season) into what the league
services take, with a clear refusal for what is not a number. The services
check the ranges themselves."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

import engine
from pbem.numbers import whole_number
from pbem.services.errors import Invalid
from pbem.web.lobby import options_from_form


@dataclass(frozen=True)
class LeagueForm:
    name: str
    players: int
    options: dict[str, Any]
    points: list[str] | None  # None: the default scoring
    open: bool
    divisions: int
    promotion: int
    stand_in: str | None  # None: the server's default

    @classmethod
    def read(cls, rules: type[engine.State[Any]], form: Mapping[str, Any]) -> LeagueForm:
        points = str(form.get("points", "")).strip()
        return cls(
            name=str(form.get("name", "")),
            players=_number(form, "players", _("players per game")),
            options=options_from_form(rules.option_spec, form),
            points=re.split(r"[\s,;]+", points) if points else None,
            open=bool(form.get("open")),
            divisions=_number(form, "divisions", _("divisions")),
            promotion=_number(form, "promotion", _("promotion")),
            stand_in=form.get("stand_in") or None,
        )


def season_settings(form: Mapping[str, Any]) -> dict[str, Any]:
    """start_season's keyword arguments: legs, pacing and days per round (optional)."""
    days = str(form.get("round-days", "")).strip()
    return {
        "legs": _number(form, "legs", _("legs")),
        "pacing": form.get("pacing", "all"),
        "round_days": _number(form, "round-days", _("days per round")) if days else None,
    }


def _number(form: Mapping[str, Any], field: str, words: str) -> int:
    raw = str(form.get(field, "")).strip()
    number = whole_number(raw)
    if number is None:
        raise Invalid(
            _("%(what)s must be a whole number, not %(text)s", what=words, text=repr(raw))
        )
    return number
