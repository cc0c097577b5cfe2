"""marshmallow schemas of the API: what comes in and what goes out."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask_babel import lazy_gettext
from marshmallow import validate

from engine.bots import DEFAULT_LEVEL, LEVELS
from pbem.i18n import LANGUAGES, page_language
from pbem.i18n.rules import describe_refusal
from pbem.models import MovedMail, OnTimeout, SubmissionStatus
from pbem.numbers import MAX_ID
from pbem.services.accounts import DIGEST_HOURS, REMINDER_HOURS
from pbem.services.events import event_text
from pbem.services.links import calendar_url
from pbem.services.time_control import BANK_DAYS, DAYS_PER_MOVE

# A seat of the new-game body: me, open, bot or bot:LEVEL (the level is
# checked by the service, which names the levels in the reader's language).
SEAT_CHOICE = r"^(me|open|bot(:[a-z]{1,20})?)$"
STAND_IN = (
    "the level of the bot that stands in for absent players: a decision that times out"
    " under on_timeout bot, a player who resigns or withdraws, a seat handed to a bot"
)
STAND_IN_DEFAULT = f"left out: the server's default (PBEM_STAND_IN, {DEFAULT_LEVEL} unless set)"


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
    shown_name = ma.fields.String(
        required=True,
        metadata={
            "description": "the name as pages show it: when two players at the table go by"
            " names that look the same, each is followed by their player number"
        },
    )
    player = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the player's id (/api/v1/players/{id}); null: bot or open"},
    )
    kind = ma.fields.String(
        required=True, validate=validate.OneOf(["user", "bot", "open"]), dump_only=True
    )
    bot_level = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the level of the bot that plays the seat (one of"
            f" {', '.join(LEVELS)}): its own bot, or the stand-in for a player who left;"
            " null: no bot",
            "enum": [*LEVELS, None],
        },
    )
    mine = ma.fields.Boolean(required=True, metadata={"description": "your own seat"})
    resigned = ma.fields.Boolean(
        required=True, metadata={"description": "its player resigned; a bot plays it on"}
    )
    deadline = ma.fields.DateTime(
        required=True,
        allow_none=True,
        metadata={
            "description": "when the decision this seat owes times out (its own days and"
            " its bank used up; ISO 8601 with UTC offset); null when it owes nothing, its"
            " clock is stopped (vacation, pause) or the game has no clock"
        },
    )
    own_deadline = ma.fields.DateTime(
        required=True,
        allow_none=True,
        metadata={
            "description": "when the seat's own days per move end and its bank starts to"
            " be drawn on; null like deadline"
        },
    )
    waiting_since = ma.fields.DateTime(
        required=True,
        allow_none=True,
        metadata={"description": "when the seat was asked for the decision it owes; null: none"},
    )
    bank_days_left = ma.fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "days left in the seat's bank (as of the start of the decision it"
            " owes); null when the game has no clock or a bot plays the seat"
        },
    )


# What the database's integer columns hold: no number sent may be larger.
ANY_ID = range(0, MAX_ID + 1)
COUNTING = range(1, MAX_ID + 1)
EMAIL_LENGTH = validate.Length(min=1, max=254)  # RFC 5321's longest path


class StrictBoolean(ma.fields.Boolean):
    """true or false only: marshmallow's Boolean also takes 0, 1, "yes" and "off"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def within(allowed: range) -> validate.Range:
    """The range a number sent must be in, stated in the OpenAPI document too."""
    low, high = allowed.start, allowed.stop - 1
    # Lazy: marshmallow formats it ({min}, {max}) when a request is refused, in its language.
    return validate.Range(
        low, high, error=lazy_gettext("must be a whole number from {min} to {max}")
    )


class TimeControlSchema(ma.Schema):
    days_per_move = ma.fields.Integer(
        required=True,
        strict=True,
        validate=within(DAYS_PER_MOVE),
        metadata={"description": "days for each decision", "example": 3},
    )
    bank_days = ma.fields.Integer(
        load_default=0,
        strict=True,
        validate=within(BANK_DAYS),
        metadata={"description": "extra days each seat may spend over the whole game"},
    )
    weekends_off = StrictBoolean(
        load_default=False,
        metadata={"description": "Saturdays and Sundays (in each player's zone) do not count"},
    )
    on_timeout = ma.fields.String(
        load_default=OnTimeout.BOT.value,
        validate=validate.OneOf([rule.value for rule in OnTimeout]),
        metadata={
            "description": "when a decision times out: bot (a bot makes it, the player keeps"
            " the seat), forfeit (the player loses the seat) or wait (the game's creator decides)"
        },
    )


class LeaguePlaceSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"description": "the league's id"})
    name = ma.fields.String(required=True)
    season = ma.fields.Integer(required=True, metadata={"description": "the season's number"})
    division = ma.fields.Integer(required=True, metadata={"description": "1 is the top"})
    round = ma.fields.Integer(required=True)
    number = ma.fields.Integer(required=True, metadata={"description": "the game in its round"})


class ResultSchema(ma.Schema):
    """The engine's result of a finished game."""

    ranking = ma.fields.List(
        ma.fields.List(ma.fields.Integer()),
        required=True,
        metadata={"description": "groups of tied 0-based seats, best first"},
    )
    winners = ma.fields.List(ma.fields.Integer(), required=True)
    unranked = ma.fields.List(
        ma.fields.Integer(), required=True, metadata={"description": "seats sharing last place"}
    )
    scores = ma.fields.List(
        ma.fields.Dict(), required=True, metadata={"description": "each seat's score, seat order"}
    )
    reason = ma.fields.String(required=True, metadata={"description": "why the game ended"})


class GameSchema(ma.Schema):
    id = ma.fields.String(required=True)
    title = ma.fields.String(required=True, metadata={"description": "'' when it has none"})
    league = ma.fields.Nested(
        LeaguePlaceSchema,
        required=True,
        allow_none=True,
        metadata={"description": "where a league game stands in its league; null: no league"},
    )
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
    paused_at = ma.fields.DateTime(
        allow_none=True, metadata={"description": "set while the organiser pauses the clocks"}
    )
    abandoned_at = ma.fields.DateTime(
        allow_none=True,
        metadata={"description": "set when the organiser abandoned it: finished, no result"},
    )
    organiser = ma.fields.Boolean(
        required=True, metadata={"description": "you created it, so you may organise it"}
    )
    result = ma.fields.Nested(
        ResultSchema,
        required=True,
        allow_none=True,
        metadata={"description": "once the game is over; null while it goes on or if abandoned"},
    )
    time_control = ma.fields.Nested(
        TimeControlSchema,
        required=True,
        allow_none=True,
        metadata={"description": "the game's clock; null: no clock (a friendly game)"},
    )
    stand_in = ma.fields.String(
        required=True,
        metadata={"description": STAND_IN, "enum": list(LEVELS)},
    )


class GameCreateSchema(ma.Schema):
    ruleset = ma.fields.String(required=True, metadata={"example": "taluva"})
    title = ma.fields.String(
        load_default="",
        validate=validate.Length(max=200),
        metadata={"description": "a name for the game, shown in lists and mail subjects"},
    )
    version = ma.fields.Integer(
        strict=True,
        validate=within(COUNTING),
        metadata={"description": "rules version (1, 2, ...); newest when left out"},
    )
    options = ma.fields.Dict(load_default=dict)
    seats = ma.fields.List(
        ma.fields.String(validate=validate.Regexp(SEAT_CHOICE), metadata={"pattern": SEAT_CHOICE}),
        required=True,
        validate=validate.Length(min=1),
        metadata={
            "description": "who sits where, in seat order: me, open, or a bot: bot:LEVEL"
            f" with LEVEL one of {', '.join(LEVELS)} (an unknown level is refused), or bot"
            f" for the default level, {DEFAULT_LEVEL}",
            "example": ["me", "bot:strong", "bot"],
        },
    )
    stand_in = ma.fields.String(
        load_default=None,
        metadata={"description": f"{STAND_IN}; {STAND_IN_DEFAULT}", "enum": list(LEVELS)},
    )
    time_control = ma.fields.Nested(
        TimeControlSchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "the game's clock; left out or null: no clock (a friendly game)"},
    )


class JoinSchema(ma.Schema):
    position = ma.fields.Integer(
        strict=True,
        validate=within(ANY_ID),
        metadata={"description": "which open seat; the first if left out"},
    )


class ViewSchema(ma.Schema):
    game = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    view = ma.fields.Dict(
        required=True, metadata={"description": "the engine's view for this seat (Game.view)"}
    )
    picture = ma.fields.String(required=True, metadata={"description": "the board as text"})
    ply = ma.fields.Integer(
        required=True,
        metadata={"description": "moves played so far; send it back with your moves"},
    )
    events = ma.fields.List(
        ma.fields.Nested(lambda: EventSchema()),
        required=True,
        metadata={"description": "timeouts and organiser actions, each after its move"},
    )


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
    ply = ma.fields.Integer(
        strict=True,
        validate=within(ANY_ID),
        metadata={
            "description": "the moves played when you chose these (the view's ply); when"
            " the game has moved on since, the moves are refused (409) rather than applied"
            " to a position you did not see, so a request sent twice applies once"
        },
    )


class RefusalSchema(ma.Schema):
    code = ma.fields.String(
        required=True,
        metadata={"description": "the refusal's stable message id, e.g. taluva.no_land"},
    )
    params = ma.fields.Dict(
        required=True,
        metadata={
            "description": "the message's parameters (English words; a nested refusal is"
            " an object with its own code and params)"
        },
    )
    rule = ma.fields.String(allow_none=True, metadata={"description": "the rule broken"})


class RefusalText(ma.fields.String):
    """A submission's stored English reason, shown in the reader's language."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        if value is None:
            return None
        return describe_refusal(obj.refusal, value, page_language())


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
    reason = RefusalText(
        allow_none=True,
        metadata={
            "description": "why it was rejected, or which moves were not played, in the"
            " reader's language (Accept-Language, or the language chosen in the settings)"
        },
    )
    refusal = ma.fields.Nested(
        RefusalSchema,
        allow_none=True,
        metadata={"description": "the reason as a message id and parameters, to translate"},
    )
    channel = ma.fields.String(required=True)
    text = ma.fields.String(required=True, attribute="raw_text")
    created_at = ma.fields.DateTime(required=True)
    processed_at = ma.fields.DateTime(allow_none=True)


class RecordMoveSchema(ma.Schema):
    seat = ma.fields.Integer(required=True, metadata={"description": "0-based seat number"})
    move = ma.fields.String(required=True, metadata={"description": "the move in notation"})


class RecordSchema(ma.Schema):
    """The engine's game record file, the one `python -m engine replay FILE` checks."""

    format = ma.fields.String(required=True, metadata={"example": "pbem-record/1"})
    ruleset = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True, metadata={"description": "rules version"})
    seats = ma.fields.List(ma.fields.String(), required=True, metadata={"description": "names"})
    seed = ma.fields.String(
        required=True,
        metadata={"description": "decides every draw; its SHA-256 is the views' seed_commitment"},
    )
    options = ma.fields.Dict(required=True)
    moves = ma.fields.List(ma.fields.Nested(RecordMoveSchema), required=True)
    withdrawn = ma.fields.List(
        ma.fields.Integer(),
        metadata={
            "description": "seats whose players resigned or lost the seat on time, in the"
            " order they left (they rank last); only present when someone left"
        },
    )


class SettingsSchema(ma.Schema):
    email = ma.fields.String(dump_only=True)
    name = ma.fields.String(
        validate=validate.Length(min=1, max=100), metadata={"description": "shown to others"}
    )
    time_zone = ma.fields.String(
        validate=validate.Length(min=1, max=64), metadata={"example": "Europe/Berlin"}
    )
    language = ma.fields.String(
        allow_none=True,
        validate=validate.OneOf(LANGUAGES),
        metadata={
            "description": "pages and mail in this language; null: not chosen (pages follow"
            " the browser, mail is in English)"
        },
    )
    moved_mail = ma.fields.String(
        validate=validate.OneOf(list(MovedMail)),
        metadata={
            "description": "each: a short mail once each turn of another player ends; never: none"
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
        strict=True,
        allow_none=True,
        validate=within(REMINDER_HOURS),
        metadata={"description": "a reminder this many hours before a deadline; null: none"},
    )
    digest_hour = ma.fields.Integer(
        strict=True,
        allow_none=True,
        validate=within(DIGEST_HOURS),
        metadata={
            "example": 18,
            "description": "instead of a mail for each turn, one a day at this hour of your"
            " time zone listing every game waiting for you; null: a mail for each turn",
        },
    )
    league_digest_day = ma.fields.Integer(
        strict=True,
        allow_none=True,
        validate=within(range(7)),
        metadata={
            "description": "the weekday (0 Monday .. 6 Sunday) of the weekly mail about your"
            " league seasons under way; null: none"
        },
    )
    league_digest_hour = ma.fields.Integer(
        strict=True,
        validate=within(DIGEST_HOURS),
        metadata={"description": "the hour of your time zone the weekly league mail comes at"},
    )
    calendar_url = ma.fields.Function(
        calendar_url,
        dump_only=True,
        metadata={
            "description": "your deadlines as an iCalendar feed; a secret: anyone with it"
            " sees them (the settings page makes a new one)"
        },
    )


class VacationSchema(ma.Schema):
    year = ma.fields.Integer(
        required=True, metadata={"description": "the calendar year counted, in your time zone"}
    )
    allowance = ma.fields.Integer(
        required=True, metadata={"description": "vacation days per year (PBEM_VACATION_DAYS)"}
    )
    used = ma.fields.Integer(
        required=True,
        metadata={
            "description": "days used this year: every day begun counts, and a vacation "
            "counts in the year it starts"
        },
    )
    left = ma.fields.Integer(required=True)
    on_vacation = ma.fields.Boolean(required=True)
    started_at = ma.fields.DateTime(
        allow_none=True, metadata={"description": "the start of the vacation going on now"}
    )
    ends_at = ma.fields.DateTime(
        allow_none=True, metadata={"description": "when the vacation going on now ends"}
    )


class VacationStartSchema(ma.Schema):
    days = ma.fields.Integer(
        required=True,
        strict=True,
        validate=within(COUNTING),
        metadata={"description": "from 1 to the days you have left this year", "example": 7},
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
    removed_at = ma.fields.DateTime(
        allow_none=True,
        metadata={"description": "set when a moderator removed the line (its text is then empty)"},
    )


class ChatPostSchema(ma.Schema):
    text = ma.fields.String(
        required=True,
        validate=validate.Length(min=1),
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


class EventSchema(ma.Schema):
    ply = ma.fields.Integer(
        required=True, metadata={"description": "moves played before it: it comes after move ply"}
    )
    kind = ma.fields.String(
        required=True,
        metadata={
            "description": "timeout, the organiser's extend, pause, resume, bot, "
            "replace or abandon, or rules: what the rules did by themselves (a Java "
            "festival auction's outcome)"
        },
    )
    seat = ma.fields.Integer(
        allow_none=True,
        attribute="seat_position",
        metadata={"description": "the 0-based seat it concerns, if one"},
    )
    text = ma.fields.Function(
        event_text,
        required=True,
        metadata={"type": "string", "description": "what happened, in the reader's language"},
    )
    created_at = ma.fields.DateTime(required=True)


class ExtendSchema(ma.Schema):
    position = ma.fields.Integer(
        strict=True,
        required=True,
        validate=within(ANY_ID),
        metadata={"description": "0-based seat number"},
    )
    days = ma.fields.Integer(
        strict=True,
        required=True,
        validate=within(range(1, 31)),
        metadata={"description": "more days for the seat's current move, 1 to 30"},
    )


class StandInSchema(ma.Schema):
    level = ma.fields.String(
        required=True, metadata={"description": STAND_IN, "enum": list(LEVELS)}
    )


class SeatChoiceSchema(ma.Schema):
    position = ma.fields.Integer(
        strict=True,
        required=True,
        validate=within(ANY_ID),
        metadata={"description": "0-based seat number"},
    )


def invitee_language_field() -> ma.fields.String:
    """The language an inviter chooses for the invitee's mails."""
    return ma.fields.String(
        validate=validate.OneOf(LANGUAGES),
        metadata={
            "description": "the language of the invitee's mails until they choose one, if they"
            " have never signed in; left out: the language of your request"
        },
    )


class ReplaceSchema(SeatChoiceSchema):
    email = ma.fields.String(
        required=True,
        validate=EMAIL_LENGTH,
        metadata={
            "format": "email",
            "description": "the new player's address; they get an invitation by mail",
        },
    )
    language = invitee_language_field()


class OrganisedSchema(ma.Schema):
    event = ma.fields.Nested(EventSchema, required=True)
    game = ma.fields.Nested(GameSchema, required=True)


class RatingPointSchema(ma.Schema):
    game = ma.fields.String(required=True, metadata={"description": "the rated game's id"})
    at = ma.fields.DateTime(required=True, metadata={"description": "when it was rated"})
    rating = ma.fields.Float(required=True, metadata={"description": "the rating after it"})


class PlayerRatingSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    rating = ma.fields.Float(
        required=True,
        metadata={"description": "the conservative rating shown: mu - 3 sigma (openskill)"},
    )
    mu = ma.fields.Float(required=True, metadata={"description": "estimated skill"})
    sigma = ma.fields.Float(required=True, metadata={"description": "its uncertainty"})
    games = ma.fields.Integer(required=True, metadata={"description": "rated games played"})
    history = ma.fields.List(
        ma.fields.Nested(RatingPointSchema),
        required=True,
        metadata={"description": "the rating after each rated game, oldest first"},
    )


class PlayedGameSchema(ma.Schema):
    id = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    status = ma.fields.String(required=True)
    seats = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "the seats' names, in order"}
    )
    finished_at = ma.fields.DateTime(allow_none=True)
    outcome = ma.fields.String(
        required=True,
        metadata={
            "description": "the player's result in words ('won', '2nd of 3'); '' if going on"
        },
    )
    rating_change = ma.fields.Float(
        allow_none=True,
        metadata={"description": "how the game moved the player's rating; null if not rated"},
    )
    against_bots = ma.fields.Boolean(
        allow_none=True, metadata={"description": "rated with bots at the table (left out)"}
    )
    forfeit = ma.fields.Boolean(
        allow_none=True,
        metadata={
            "description": "rated, and a seat left the game (resigned, out on time, "
            "or a league entrant who withdrew)"
        },
    )
    title = ma.fields.String(
        required=True,
        metadata={
            "description": "what people call the game; a league game's says where it "
            "stands in its season"
        },
    )
    league = ma.fields.String(
        allow_none=True, metadata={"description": "a league game's league id; null outside"}
    )
    season = ma.fields.Integer(
        allow_none=True, metadata={"description": "a league game's season number; null outside"}
    )


class PlayerLeagueSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"description": "the league's id"})
    name = ma.fields.String(required=True)
    season = ma.fields.Integer(
        allow_none=True,
        metadata={"description": "the newest season the player plays in; null before one"},
    )
    division = ma.fields.Integer(required=True, metadata={"description": "1 is the top"})
    place = ma.fields.String(
        required=True,
        metadata={
            "description": "the player's place in that season's division table "
            "('2', or '2=' when tied); '' before a season"
        },
    )


class PlayedGamePageSchema(ma.Schema):
    games = ma.fields.List(ma.fields.Nested(PlayedGameSchema), required=True)
    page = ma.fields.Integer(required=True, metadata={"description": "1-based"})
    pages = ma.fields.Integer(required=True)
    total = ma.fields.Integer(required=True)


class PlayerQuerySchema(ma.Schema):
    active_page = ma.fields.Integer(load_default=1, validate=within(COUNTING))
    finished_page = ma.fields.Integer(load_default=1, validate=within(COUNTING))


class PlayerSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    time_zone = ma.fields.String(required=True)
    local_time = ma.fields.DateTime(
        required=True, metadata={"description": "the player's time now, with their UTC offset"}
    )
    ratings = ma.fields.List(ma.fields.Nested(PlayerRatingSchema), required=True)
    leagues = ma.fields.List(
        ma.fields.Nested(PlayerLeagueSchema),
        required=True,
        metadata={
            "description": "each season the player played in the leagues they entered (by"
            " league name, newest season first); a league entered with no season yet once"
        },
    )
    active = ma.fields.Nested(PlayedGamePageSchema, required=True)
    finished = ma.fields.Nested(PlayedGamePageSchema, required=True)
