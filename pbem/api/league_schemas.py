"""marshmallow schemas of the leagues API (pbem.api.leagues)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from engine.bots import LEVELS
from pbem.api.schemas import (
    ANY_ID,
    COUNTING,
    EMAIL_LENGTH,
    STAND_IN,
    STAND_IN_DEFAULT,
    StrictBoolean,
    TimeControlSchema,
    invitee_language_field,
    within,
)
from pbem.leagues.leagues import MAX_DIVISIONS
from pbem.leagues.schedule import LEGS
from pbem.leagues.seasons import PACINGS, ROUND_DAYS
from pbem.services.names import NAME_LENGTH

DIVISIONS = range(1, MAX_DIVISIONS + 1)
PLAYERS_PER_GAME = range(2, 5)

ENTRANT_STATUSES = ("invited", "entered", "left")
LEAGUE_STAND_IN = f"{STAND_IN}; in a league, also the bot that plays for an entrant who withdrew"


class LeagueCreateSchema(ma.Schema):
    name = ma.fields.String(
        required=True,
        validate=validate.Length(min=1, max=NAME_LENGTH),
        metadata={"example": "Tuesday club"},
    )
    ruleset = ma.fields.String(required=True, metadata={"example": "taluva"})
    players_per_game = ma.fields.Integer(
        required=True, strict=True, validate=within(PLAYERS_PER_GAME), metadata={"example": 3}
    )
    options = ma.fields.Dict(load_default=dict)
    time_control = ma.fields.Nested(
        TimeControlSchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "every league game's clock; left out or null: no clock"},
    )
    points_table = ma.fields.List(
        ma.fields.Raw(metadata={"oneOf": [{"type": "number"}, {"type": "string"}]}),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=PLAYERS_PER_GAME.start, max=PLAYERS_PER_GAME.stop - 1),
        metadata={
            "description": "league points for 1st, 2nd, ... place, exactly one per player of a"
            " game (players_per_game items: numbers or"
            ' texts like "1/2"); left out: win 1, draw 1/2 with 2 players, n - place with n',
            "example": [3, 1, 0],
        },
    )
    open = StrictBoolean(
        load_default=False,
        metadata={"description": "anyone signed in may join; else only invited addresses"},
    )
    divisions = ma.fields.Integer(load_default=1, strict=True, validate=within(DIVISIONS))
    promotion = ma.fields.Integer(
        load_default=0,
        strict=True,
        validate=within(ANY_ID),
        metadata={"description": "how many move up and down between divisions after a season"},
    )
    stand_in = ma.fields.String(
        load_default=None,
        metadata={"description": f"{LEAGUE_STAND_IN}; {STAND_IN_DEFAULT}", "enum": list(LEVELS)},
    )


class OrganiserSchema(ma.Schema):
    id = ma.fields.Integer(required=True, metadata={"description": "the user's id"})
    name = ma.fields.String(required=True)


class EntrantSchema(ma.Schema):
    id = ma.fields.Integer(
        required=True, metadata={"description": "the entry's id, to place it in a division"}
    )
    player = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the user's id; null while an invitation is not accepted"},
    )
    name = ma.fields.String(
        required=True,
        metadata={"description": "the player's name; 'invited' for an invitation not yet accepted"},
    )
    email = ma.fields.String(
        allow_none=True,
        metadata={"description": "the invited address; shown to organisers only"},
    )
    division = ma.fields.Integer(required=True, metadata={"description": "1 is the top"})
    status = ma.fields.String(required=True, validate=validate.OneOf(ENTRANT_STATUSES))


class SeasonSummarySchema(ma.Schema):
    id = ma.fields.Integer(
        required=True, metadata={"description": "the season's number: 1, 2, ..."}
    )
    started_at = ma.fields.DateTime(required=True)
    finished_at = ma.fields.DateTime(required=True, allow_none=True)


class LeagueSchema(ma.Schema):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    players_per_game = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    time_control = ma.fields.Nested(TimeControlSchema, required=True, allow_none=True)
    points_table = ma.fields.List(
        ma.fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": 'points per place as exact texts ("1/2"); null: the defaults'},
    )
    open = ma.fields.Boolean(required=True)
    divisions = ma.fields.Integer(required=True)
    promotion = ma.fields.Integer(required=True)
    stand_in = ma.fields.String(
        required=True, metadata={"description": LEAGUE_STAND_IN, "enum": list(LEVELS)}
    )
    organisers = ma.fields.List(ma.fields.Nested(OrganiserSchema), required=True)
    entrants = ma.fields.List(ma.fields.Nested(EntrantSchema), required=True)
    seasons = ma.fields.List(ma.fields.Nested(SeasonSummarySchema), required=True)
    organiser = ma.fields.Boolean(
        required=True, metadata={"description": "you organise this league"}
    )


class EmailSchema(ma.Schema):
    email = ma.fields.String(
        required=True,
        validate=EMAIL_LENGTH,
        metadata={"format": "email", "example": "ann@example.org"},
    )


class InvitationSchema(EmailSchema):
    language = invitee_language_field()


class DivisionPlacementSchema(ma.Schema):
    division = ma.fields.Integer(
        required=True,
        strict=True,
        validate=within(DIVISIONS),
        metadata={"description": "1 is the top division", "example": 2},
    )


class SeasonStartSchema(ma.Schema):
    legs = ma.fields.Integer(
        load_default=1,
        strict=True,
        validate=validate.OneOf(list(LEGS)),
        metadata={"description": "1: everyone meets once; 2: twice, seats swapped"},
    )
    pacing = ma.fields.String(
        load_default="all",
        validate=validate.OneOf(PACINGS),
        metadata={
            "description": "all: every game starts now; rounds: a round starts when the one"
            " before ends (or after round_days at the latest)"
        },
    )
    round_days = ma.fields.Integer(
        allow_none=True,
        load_default=None,
        strict=True,
        validate=within(ROUND_DAYS),
    )
    seed = ma.fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "decides the schedule; random when left out"},
    )


class SeasonStartedSchema(ma.Schema):
    id = ma.fields.Integer(required=True, metadata={"description": "the season's number"})
    games = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "the games started now"}
    )


class StandingsRowSchema(ma.Schema):
    entrant = ma.fields.Integer(
        required=True,
        metadata={"description": "the row's id in the season (for withdraw and replace)"},
    )
    player = ma.fields.Integer(
        required=True, allow_none=True, metadata={"description": "who plays the row now"}
    )
    name = ma.fields.String(required=True)
    rank = ma.fields.Integer(required=True)
    place = ma.fields.String(required=True, metadata={"description": 'the rank, "2=" when tied'})
    played = ma.fields.Integer(required=True)
    points = ma.fields.Float(required=True, metadata={"description": "league points"})
    score = ma.fields.Float(
        required=True, metadata={"description": "game scores summed: the first tie-break"}
    )
    rating = ma.fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "the player's conservative rating in the game; null: none"},
    )
    withdrawn = ma.fields.Boolean(required=True)
    games = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "the finished games counted"}
    )


class StandingsQuerySchema(ma.Schema):
    season = ma.fields.Integer(
        validate=within(COUNTING),
        metadata={"description": "left out: the season going on, else the last one"},
    )
    division = ma.fields.Integer(load_default=1, validate=within(DIVISIONS))


class StandingsSchema(ma.Schema):
    season = ma.fields.Integer(required=True)
    division = ma.fields.Integer(required=True)
    rows = ma.fields.List(
        ma.fields.Nested(StandingsRowSchema), required=True, metadata={"description": "best first"}
    )


class BalanceSchema(ma.Schema):
    games = ma.fields.List(
        ma.fields.Integer(), required=True, metadata={"description": "[fewest, most] per entrant"}
    )
    meetings = ma.fields.List(
        ma.fields.Integer(), required=True, metadata={"description": "[fewest, most] per pair"}
    )
    seats = ma.fields.List(
        ma.fields.Integer(),
        required=True,
        metadata={"description": "[fewest, most] times an entrant takes one seat"},
    )
    text = ma.fields.String(required=True)


class ScheduledGameSchema(ma.Schema):
    game = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "null: not started yet"}
    )
    title = ma.fields.String(required=True)
    status = ma.fields.String(
        required=True,
        validate=validate.OneOf(["scheduled", "open", "active", "finished"]),
    )
    seats = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "entrants' names, seat order"}
    )


class DivisionSchema(ma.Schema):
    division = ma.fields.Integer(required=True)
    balance = ma.fields.Nested(BalanceSchema, required=True)
    rounds = ma.fields.List(ma.fields.List(ma.fields.Nested(ScheduledGameSchema)), required=True)
    standings = ma.fields.List(ma.fields.Nested(StandingsRowSchema), required=True)


class SeasonSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    number = ma.fields.Integer(required=True)
    started_at = ma.fields.DateTime(required=True)
    finished_at = ma.fields.DateTime(required=True, allow_none=True)
    legs = ma.fields.Integer(required=True)
    pacing = ma.fields.String(required=True, validate=validate.OneOf(PACINGS))
    round_days = ma.fields.Integer(required=True, allow_none=True)
    divisions = ma.fields.List(ma.fields.Nested(DivisionSchema), required=True)
