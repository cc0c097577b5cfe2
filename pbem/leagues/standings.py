"""A season's (or division's) standings from its finished games, without the database.

League points come from each game's ranking: by default, with 2 players a win
is 1, a draw 1/2 each, a loss 0; with n players a seat gets n - place points
(1st of 4 gets 3), and seats that tie share the average of the places they
cover (4 players, a tie for 2nd: 3, 3/2, 3/2, 0). An organiser may set a table
of points per place instead; tied seats share its average the same way.
Points are Fractions so halves and thirds add up exactly.

Withdrawn entrants (resigned, or forfeited on time) need nothing here: the
engine's ranking already puts them last, so their game is a loss. Abandoned
games have no result and are simply not passed in.

The order: points, then total game score (one number per seat and game,
which game_score takes from the engine's score dict), then head-to-head among the tied
entrants only: in each game where two or more of them met, each gets 1 for
every tied entrant it finished ahead of and 1/2 for every one it tied with (the
default table applied to the game's ranking cut down to them). When that
splits the group, any part still tied goes through head-to-head again among
its own members. Entrants still tied then share a rank ("2=") and are listed in
the order the caller gave the entrants (by name, say), which decides nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby, pairwise
from numbers import Rational
from typing import Any

from flask_babel import gettext as _

import engine
from pbem.services.errors import Invalid

Ranking = tuple[tuple[int, ...], ...]
# The score keys that already sum a seat's game, per ruleset: Java's points,
# Samurai's figures captured. Taluva has none: its buildings placed are summed.
_SCORE_KEYS = ("points", "total")


def game_score(score: Mapping[str, Any]) -> int:
    """One number for a seat's score dict of engine.Result.scores, for the
    standings' first tie-break: its "points" or "total" where the ruleset keeps
    one, else the sum of its counts (Taluva: buildings placed; flags like
    "eliminated" are not counts)."""
    for key in _SCORE_KEYS:
        if key in score:
            return int(score[key])
    return sum(v for v in score.values() if isinstance(v, int) and not isinstance(v, bool))


@dataclass(frozen=True)
class GameOutcome:
    """A finished league game: `entrants` in seat order, `ranking` as in
    engine.Result.ranking (tie groups of seat positions, best first, every seat
    once) and each seat's game score as one number (see game_score)."""

    game_id: int
    entrants: tuple[Hashable, ...]
    ranking: Ranking
    scores: tuple[int | Fraction, ...]

    def __post_init__(self) -> None:
        seats = sorted(seat for group in self.ranking for seat in group)
        if seats != list(range(len(self.entrants))) or not all(self.ranking):
            raise ValueError(
                f"game {self.game_id}: ranking {self.ranking} does not rank each seat once"
            )
        if len(self.scores) != len(self.entrants):
            raise ValueError(
                f"game {self.game_id}: {len(self.scores)} scores for {len(self.entrants)} seats"
            )

    @classmethod
    def of(cls, game_id: int, entrants: Sequence[Hashable], result: engine.Result) -> GameOutcome:
        """From the engine's result; seats it leaves unranked share the last place."""
        ranking = result.ranking + ((result.unranked,) if result.unranked else ())
        scores = tuple(game_score(score) for score in result.scores)
        return cls(game_id, tuple(entrants), ranking, scores)


def points_table(values: Sequence[Any], players: int) -> tuple[Fraction, ...]:
    """An organiser's table, checked: points for 1st, 2nd, ... place, one per
    player, as numbers or text like "1.5" or "1/2"; never more for a worse place."""
    if len(values) != players:
        raise Invalid(
            _(
                "a table for %(players)d-player games needs %(players)d values, "
                "one per place, not %(count)d",
                players=players,
                count=len(values),
            )
        )
    table = tuple(_points(value, place) for place, value in enumerate(values, start=1))
    for place, (better, worse) in enumerate(pairwise(table), start=1):
        if worse > better:
            raise Invalid(
                _(
                    "place %(worse)d cannot get more points than place %(better)d",
                    worse=place + 1,
                    better=place,
                )
            )
    if table[0] == table[-1]:
        raise Invalid(
            _("the table gives every place the same points, so games would decide nothing")
        )
    return table


def _points(value: Any, place: int) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Rational):
        raise Invalid(
            _(
                "points for place %(place)d must be a number, not %(value)s",
                place=place,
                value=repr(value),
            )
        )
    try:
        # A float goes through its shortest text, so 0.1 is 1/10, not a binary fraction.
        points = Fraction(repr(value) if isinstance(value, float) else value)
    except (ValueError, ZeroDivisionError):
        raise Invalid(
            _(
                "points for place %(place)d must be a number like 2, 1.5 or 1/2, not %(value)s",
                place=place,
                value=repr(value),
            )
        ) from None
    if points < 0:
        raise Invalid(_("points for place %(place)d cannot be negative", place=place))
    return points


def league_points(
    ranking: Ranking, players: int, table: Sequence[Any] | None = None
) -> list[Fraction]:
    """Points per seat position for one game (the defaults, or `table`, which is
    checked): tied seats share the average points of the places they cover."""
    if table is None:
        per_place = tuple(Fraction(players - place) for place in range(1, players + 1))
    else:
        per_place = points_table(table, players)
    points = [Fraction(0)] * players
    place = 0
    for group in ranking:
        share = sum(per_place[place : place + len(group)], Fraction(0)) / len(group)
        for seat in group:
            points[seat] = share
        place += len(group)
    return points


@dataclass
class Row:
    """One line of the table. `rank` is shared by rows that stay tied (`tied`
    shows it as "2="); `games` are the ids of the games counted, in order given."""

    entrant: Hashable
    played: int = 0
    points: Fraction = Fraction(0)
    score: Fraction = Fraction(0)
    games: list[int] = field(default_factory=list)
    rank: int = 0
    tied: bool = False

    @property
    def place(self) -> str:
        return f"{self.rank}=" if self.tied else str(self.rank)


def standings(
    entrants: Sequence[Hashable],
    outcomes: Sequence[GameOutcome],
    table: Sequence[Any] | None = None,
    per_game: bool = False,
) -> list[Row]:
    """The rows best first, every entrant in, those who have not played yet too.
    `per_game`: ranked by points (then score) per game played, for a schedule
    in which some entrants play more games than others."""
    rows = {entrant: Row(entrant) for entrant in entrants}
    for outcome in outcomes:
        points = league_points(outcome.ranking, len(outcome.entrants), table)
        for seat, entrant in enumerate(outcome.entrants):
            if entrant not in rows:
                raise ValueError(f"game {outcome.game_id} seats {entrant!r}, who is not an entrant")
            row = rows[entrant]
            row.played += 1
            row.points += points[seat]
            row.score += Fraction(outcome.scores[seat])
            row.games.append(outcome.game_id)
    ordered: list[Row] = []

    def totals(row: Row) -> tuple[Fraction, Fraction]:
        games = max(row.played, 1) if per_game else 1
        return row.points / games, row.score / games

    by_totals = sorted(rows.values(), key=lambda row: tuple(-value for value in totals(row)))
    for _totals, same in groupby(by_totals, key=totals):
        for group in _head_to_head([row.entrant for row in same], outcomes):
            rank = len(ordered) + 1
            for entrant in group:
                row = rows[entrant]
                row.rank, row.tied = rank, len(group) > 1
                ordered.append(row)
    return ordered


def _head_to_head(tied: list[Hashable], outcomes: Sequence[GameOutcome]) -> list[list[Hashable]]:
    """`tied` (in entrant order) split into groups best first by the mini-table
    of their games together, each part split again among its own members; a
    group that the mini-table cannot split stays one group."""
    if len(tied) == 1:
        return [tied]
    among = set(tied)
    mini = dict.fromkeys(tied, Fraction(0))
    for outcome in outcomes:
        present = [seat for seat, entrant in enumerate(outcome.entrants) if entrant in among]
        if len(present) < 2:
            continue
        cut = (tuple(present.index(s) for s in group if s in present) for group in outcome.ranking)
        for index, points in enumerate(league_points(tuple(g for g in cut if g), len(present))):
            mini[outcome.entrants[present[index]]] += points
    ordered = sorted(tied, key=lambda entrant: -mini[entrant])
    groups = [list(group) for _, group in groupby(ordered, key=mini.__getitem__)]
    if len(groups) == 1:
        return groups
    return [part for group in groups for part in _head_to_head(group, outcomes)]
