"""marshmallow schemas of the API: what comes in and what goes out."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from pbem.models import MovedMail, SubmissionStatus
from pbem.services.accounts import DIGEST_HOURS, LANGUAGES, REMINDER_HOURS
from pbem.web.links import calendar_url


class OptionSchema(ma.Schema):
    name = ma.fields.String(required=True)
    default = ma.fields.Raw(required=True)
    help = ma.fields.String(required=True)
    choices = ma.fields.List(ma.fields.Raw(), allow_none=True)


class RulesetSchema(ma.Schema):
    name = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    min_players = ma.fields.Integer(required=True)
    max_players = ma.fields.Integer(required=True)
    options = ma.fields.List(ma.fields.Nested(OptionSchema), attribute="option_spec", required=True)


class SeatSchema(ma.Schema):
    position = ma.fields.Integer(required=True, metadata={"description": "0-based seat number"})
    colour = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    kind = ma.fields.String(
        required=True, validate=validate.OneOf(["user", "bot", "open"]), dump_only=True
    )
    mine = ma.fields.Boolean(required=True, metadata={"description": "your own seat"})
    resigned = ma.fields.Boolean(
        required=True, metadata={"description": "its player resigned; a bot plays it on"}
    )


class GameSchema(ma.Schema):
    id = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    status = ma.fields.String(
        required=True, validate=validate.OneOf(["open", "active", "finished"])
    )
    to_act = ma.fields.List(
        ma.fields.Integer(), required=True, metadata={"description": "seats that must act now"}
    )
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    created_at = ma.fields.DateTime(required=True)
    finished_at = ma.fields.DateTime(allow_none=True)


class GameCreateSchema(ma.Schema):
    ruleset = ma.fields.String(required=True, metadata={"example": "taluva"})
    version = ma.fields.Integer(metadata={"description": "rules version; newest when left out"})
    options = ma.fields.Dict(load_default=dict)
    seats = ma.fields.List(
        ma.fields.String(validate=validate.OneOf(["me", "bot", "kinds-bot", "open"])),
        required=True,
        validate=validate.Length(min=1),
        metadata={
            "description": "who sits where, in seat order: me, bot (random legal moves), "
            "kinds-bot (a random kind of move first, then a move of that kind) or open"
        },
    )


class JoinSchema(ma.Schema):
    position = ma.fields.Integer(metadata={"description": "which open seat; the first if left out"})


class ViewSchema(ma.Schema):
    game = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    view = ma.fields.Dict(
        required=True, metadata={"description": "the engine's view for this seat (Game.view)"}
    )
    picture = ma.fields.String(required=True, metadata={"description": "the board as text"})


class LegalMovesSchema(ma.Schema):
    moves = ma.fields.List(ma.fields.String(), required=True)


class SubmitSchema(ma.Schema):
    moves = ma.fields.List(
        ma.fields.String(),
        required=True,
        validate=validate.Length(min=1),
        metadata={
            "description": "the moves of one turn: all are applied or none, except that a"
            " draw cannot be taken back (see the submission's status partial)"
        },
    )


class SubmissionSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    status = ma.fields.String(
        required=True,
        validate=validate.OneOf([s.value for s in SubmissionStatus]),
        metadata={
            "description": "partial: the moves up to a draw were played and the rest refused"
            " (a draw cannot be taken back)"
        },
    )
    reason = ma.fields.String(
        allow_none=True,
        metadata={"description": "why it was rejected, or which moves were not played"},
    )
    channel = ma.fields.String(required=True)
    text = ma.fields.String(required=True, attribute="raw_text")
    created_at = ma.fields.DateTime(required=True)
    processed_at = ma.fields.DateTime(allow_none=True)


class SettingsSchema(ma.Schema):
    email = ma.fields.String(dump_only=True)
    name = ma.fields.String(
        validate=validate.Length(min=1, max=100), metadata={"description": "shown to others"}
    )
    time_zone = ma.fields.String(metadata={"example": "Europe/Berlin"})
    language = ma.fields.String(validate=validate.OneOf(LANGUAGES))
    moved_mail = ma.fields.String(
        validate=validate.OneOf(list(MovedMail)),
        metadata={
            "description": "each: a short mail after every move of another player; never: none"
        },
    )
    quiet_hours = ma.fields.String(
        allow_none=True,
        metadata={
            "description": "from-to in your time zone: no game mail then (it waits for their"
            " end) and no deadline falls in them; null: none",
            "example": "22:00-08:00",
        },
    )
    reminder_hours = ma.fields.Integer(
        allow_none=True,
        validate=validate.Range(REMINDER_HOURS.start, REMINDER_HOURS.stop - 1),
        metadata={"description": "a reminder this many hours before a deadline; null: none"},
    )
    digest_hour = ma.fields.Integer(
        allow_none=True,
        validate=validate.Range(DIGEST_HOURS.start, DIGEST_HOURS.stop - 1),
        metadata={
            "description": "instead of a mail for each turn, one a day at this hour of your"
            " time zone listing every game waiting for you; null: a mail for each turn"
        },
    )
    calendar_url = ma.fields.Function(
        calendar_url,
        dump_only=True,
        metadata={
            "description": "your deadlines as an iCalendar feed; a secret: anyone with it"
            " sees them (the settings page makes a new one)"
        },
    )


class ChatMessageSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    seat = ma.fields.Integer(
        required=True, attribute="seat.position", metadata={"description": "0-based seat number"}
    )
    name = ma.fields.String(required=True, attribute="seat.name")
    text = ma.fields.String(required=True)
    channel = ma.fields.String(required=True, metadata={"description": "web, api or mail"})
    created_at = ma.fields.DateTime(required=True)


class ChatPostSchema(ma.Schema):
    text = ma.fields.String(
        required=True,
        metadata={"description": "to the other players, at most PBEM_CHAT_MAX_CHARS characters"},
    )


class ChatSentSchema(ma.Schema):
    message = ma.fields.Nested(ChatMessageSchema, required=True)
    readers = ma.fields.Integer(
        required=True, metadata={"description": "other players it is mailed to"}
    )
    summary = ma.fields.String(
        required=True, metadata={"description": "the same in words; says so when only bots read"}
    )
