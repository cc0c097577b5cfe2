"""The database tables. The move log is the truth about a game; everything the
engine knows is rebuilt from it (see pbem.services.games.engine_game)."""

from __future__ import annotations

import enum
import secrets
from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from engine.bots import DEFAULT_LEVEL
from pbem.timestamps import UTCDateTime

# Named constraints, so Alembic can alter them on SQLite (batch mode) too.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


def public_id() -> str:
    """Game ids in URLs are random so nobody can count or guess games."""
    return secrets.token_urlsafe(9)


def seat_token() -> str:
    return secrets.token_urlsafe(24)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar = {datetime: UTCDateTime(), dict[str, Any]: JSON}


class GameStatus(enum.StrEnum):
    OPEN = "open"  # waiting for players to take seats
    ACTIVE = "active"
    FINISHED = "finished"


class SubmissionStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    PARTIAL = "partial"  # played up to a draw, the rest refused: a draw cannot be taken back
    REJECTED = "rejected"


class Channel(enum.StrEnum):
    """What a turn (a submission, a move) or a chat line came by; stored as its value."""

    API = "api"
    WEB = "web"
    MAIL = "mail"
    BOT = "bot"  # a bot playing its own seat
    CLOCK = "clock"  # a bot making a decision that timed out (pbem.clock.timeouts)


class MovedMail(enum.StrEnum):
    """When a player hears of the other seats' moves between their own turns."""

    NEVER = "never"
    EACH = "each"  # a short mail after every accepted submission of another seat


class OnTimeout(enum.StrEnum):
    """What happens to a seat whose decision is not made in time."""

    BOT = "bot"  # a bot makes that decision; the player keeps the seat
    FORFEIT = "forfeit"  # the player loses the seat, as if resigning
    WAIT = "wait"  # the game's creator is told and decides


class OutboxStatus(enum.StrEnum):
    PENDING = "pending"
    SENDING = "sending"  # handed to a sender under a lease (`claimed_until`)
    SENT = "sent"
    FAILED = "failed"
    DROPPED = "dropped"  # held in quiet hours, then folded into a later mail or no longer news


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    # None: not chosen; pages follow the browser, mail is in English. An
    # inviter may choose it for someone who has never signed in
    # (pbem.services.accounts.invited_user).
    language: Mapped[str | None] = mapped_column(String(16))
    moved_mail: Mapped[str] = mapped_column(
        String(16), default=MovedMail.EACH, server_default=MovedMail.EACH.value
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Last sign-in through a link: None until the first one. Each sign-in
    # changes it, which is what makes every earlier link useless.
    signed_in_at: Mapped[datetime | None]
    # Local "HH:MM" between which no game mail is sent and no deadline falls;
    # None: no quiet hours.
    quiet_start: Mapped[str | None] = mapped_column(String(5), default="22:00")
    quiet_end: Mapped[str | None] = mapped_column(String(5), default="08:00")
    # A reminder this many hours before a deadline; None: no reminders.
    reminder_hours: Mapped[int | None] = mapped_column(Integer, default=24)
    # A daily digest at this local hour instead of a mail per turn; None: per turn.
    digest_hour: Mapped[int | None] = mapped_column(Integer)
    digest_sent_on: Mapped[date | None]  # the local day the last digest went out
    # The weekly league digest: on this local weekday (0 Monday .. 6 Sunday; None: off)
    # at this local hour, for players with a league season under way.
    league_digest_day: Mapped[int | None] = mapped_column(Integer, default=0, server_default="0")
    league_digest_hour: Mapped[int] = mapped_column(Integer, default=18, server_default="18")
    league_digest_sent_on: Mapped[date | None]  # the local day the last one went out
    # The secret of the player's iCalendar feed of deadlines.
    calendar_token: Mapped[str] = mapped_column(String(40), unique=True, default=seat_token)
    # Administrators see the server's failed mail, stuck turns and refusals
    # and may remove any chat line (`pbem user admin EMAIL`).
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # Set while an administrator has suspended the account: no channel lets
    # it in, and the stand-in bot plays its seats (pbem.services.suspension).
    suspended_at: Mapped[datetime | None]
    # Set once the account is deleted (pbem.services.account_deletion): the
    # row stays, with nothing personal, so finished games and ratings keep a
    # "former player N" to point at.
    deleted_at: Mapped[datetime | None]

    seats: Mapped[list[Seat]] = relationship(back_populates="user")

    @property
    def locked_out(self) -> bool:
        """Suspended or deleted: every channel turns the account away."""
        return self.suspended_at is not None or self.deleted_at is not None

    @property
    def quiet_hours(self) -> str | None:
        """Like "22:00-08:00", as settings show and take them; None: none."""
        if self.quiet_start is None or self.quiet_end is None:
            return None
        return f"{self.quiet_start}-{self.quiet_end}"


class ApiToken(Base):
    """Only the token's SHA-256 is kept; the token itself is shown once."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class BrowserSession(Base):
    """One browser's sign-in: the id Flask-Login keeps in its session and
    remember cookies is the secret whose SHA-256 is kept here. Signing out
    deletes the row, so a copy of that browser's cookies signs in nobody;
    signing out everywhere, a suspension and a deletion delete them all."""

    __tablename__ = "browser_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship()


class Game(Base):
    __tablename__ = "games"
    # A round of a season is made once, however many finishing games race to make it.
    __table_args__ = (UniqueConstraint("season_id", "division", "round", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(16), unique=True, default=public_id)
    ruleset: Mapped[str] = mapped_column(String(40))
    ruleset_version: Mapped[int]
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.OPEN, index=True)
    lock_version: Mapped[int] = mapped_column(Integer, default=0)
    # Seats that must act now, kept by the pipeline so lists need no replay.
    to_act: Mapped[list[int]] = mapped_column(JSON, default=list)
    # Indexed: "my games" and the open games look a user's own games up by it.
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # The clock (see pbem.services.time_control); days_per_move None: no clock (a friendly game).
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    bank_days: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    weekends_off: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    on_timeout: Mapped[str] = mapped_column(
        String(8), default=OnTimeout.BOT, server_default=OnTimeout.BOT.value
    )
    # The level of the bot that takes a seat over (a timeout under
    # on_timeout bot, a resignation, a seat handed to a bot): engine.bots.LEVELS.
    stand_in: Mapped[str] = mapped_column(
        String(20), default=DEFAULT_LEVEL, server_default=DEFAULT_LEVEL
    )
    # Set while the organiser has paused the game: every clock in it stops.
    paused_at: Mapped[datetime | None]
    # Set when the organiser abandoned the game (it is then finished, without a result).
    abandoned_at: Mapped[datetime | None]
    # What people call the game (pages, lists, mail subjects); a league game's
    # says where it stands in its season (pbem.leagues.seasons.game_title).
    title: Mapped[str] = mapped_column(String(200), default="", server_default="")
    # The engine's result (engine.Result.to_json) once the game is over, kept so
    # tables and profiles need no replay; None while it goes on or if abandoned.
    result: Mapped[dict[str, Any] | None]
    # A league game: its season, division (1 is the top), round and number in
    # the round; all None for a game outside a league.
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), index=True
    )
    division: Mapped[int | None]
    round: Mapped[int | None]
    number: Mapped[int | None]

    season: Mapped[Season | None] = relationship(back_populates="games")

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    moves: Mapped[list[Move]] = relationship(
        back_populates="game", order_by="Move.ply", cascade="all, delete-orphan"
    )


OPEN_SEAT = "user_id IS NULL AND bot IS NULL"


class Seat(Base):
    """A place at the table: a user, a bot, or still open (neither)."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        # A player's games, read from the index alone ("my games", profiles).
        Index("ix_seats_user_id_game_id", "user_id", "game_id"),
        # The few seats waiting for a player, for the list of open games.
        Index(
            "ix_seats_open",
            "game_id",
            sqlite_where=text(OPEN_SEAT),
            postgresql_where=text(OPEN_SEAT),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    position: Mapped[int]  # the engine's seat number, 0-based
    colour: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(100), default="")
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # The level of the bot that plays the seat (engine.bots.LEVELS); None: no bot.
    bot: Mapped[str | None] = mapped_column(String(20))
    # Since when a bot is asked to think for the seat (its own, or a stand-in
    # for a timed-out decision) and has not answered: the sweep asks again
    # after a lost task message (pbem.services.bot_thinking).
    bot_asked_at: Mapped[datetime | None] = mapped_column(index=True)
    # An open seat kept for the person invited at this address.
    invited_email: Mapped[str | None] = mapped_column(String(320))
    token: Mapped[str] = mapped_column(String(40), unique=True, default=seat_token)
    # Set when the player resigned: a bot plays the seat on, the player is out.
    resigned_at: Mapped[datetime | None]
    # The seat's clock (pbem.services.deadlines): when the decision it owes was asked for,
    # the moment its own days end, the moment it times out (after the bank),
    # the bank left, and what was already done about this decision.
    asked_at: Mapped[datetime | None]
    deadline: Mapped[datetime | None]
    timeout_at: Mapped[datetime | None] = mapped_column(index=True)
    bank_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    extra_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    reminded_at: Mapped[datetime | None]
    timed_out_at: Mapped[datetime | None]
    # In a league game: the season entrant whose result this seat is, whoever
    # plays it now (a replacement, or a bot after a withdrawal).
    entrant_id: Mapped[int | None] = mapped_column(
        ForeignKey("season_entrants.id", ondelete="SET NULL"), index=True
    )

    game: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship(back_populates="seats")

    # What the seat's columns say together, asked here rather than of the
    # columns at each use.

    @property
    def is_open(self) -> bool:
        """Waiting for a player: neither a person nor a bot holds it."""
        return self.user_id is None and self.bot is None

    @property
    def has_left(self) -> bool:
        """Its player is out (resigned, forfeited on time, handed to a bot,
        the account deleted): a bot plays it on."""
        return self.resigned_at is not None

    @property
    def played_by_person(self) -> bool:
        """A person plays it, with no bot for them: they have a clock."""
        return self.user_id is not None and self.bot is None

    @property
    def is_playing(self) -> bool:
        """Its player plays it still: a person, no bot for them, not left."""
        return self.played_by_person and not self.has_left

    @property
    def timed_out(self) -> bool:
        """Its player keeps it, but their decision ran out of time: the
        clock acts for them (pbem.clock.timeouts)."""
        return self.played_by_person and self.timed_out_at is not None


WAITING_INTERACTIVE = "status = 'pending' AND channel IN ('api', 'web')"


class Submission(Base):
    """What a seat sent, by whatever channel, before anyone judged it."""

    __tablename__ = "submissions"
    __table_args__ = (
        Index("ix_submissions_status_created", "status", "created_at"),
        # One waiting submission per seat from the interactive channels, so
        # racing requests store one turn and the others are refused at once.
        # Mail may queue a second reply behind the first; bots never race.
        Index(
            "uq_submissions_seat_waiting",
            "seat_id",
            unique=True,
            sqlite_where=text(WAITING_INTERACTIVE),
            postgresql_where=text(WAITING_INTERACTIVE),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    raw_text: Mapped[str] = mapped_column(Text)
    channel: Mapped[str] = mapped_column(String(16))
    # Who sent it (None: a bot or the clock acting for the seat) and the
    # seat's holder it was sent for (None: a bot's own seat). The worker
    # refuses it if the seat changed hands before it was judged.
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    sent_for_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    status: Mapped[str] = mapped_column(String(16), default=SubmissionStatus.PENDING)
    reason: Mapped[str | None] = mapped_column(Text)
    # The refusal's message id, parameters and rule (pbem.i18n.rules), so it
    # is shown in each reader's language; `reason` keeps the English text.
    refusal: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Lines of a mailed turn read as no move (a greeting, a signature), named
    # in the answer to the turn once it is judged, then forgotten.
    aside: Mapped[list[str] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    processed_at: Mapped[datetime | None]

    game: Mapped[Game] = relationship()
    seat: Mapped[Seat] = relationship()


class Move(Base):
    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int]  # 1-based position in the game's log
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(Text)
    channel: Mapped[str] = mapped_column(String(16))
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("submissions.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="moves")
    seat: Mapped[Seat] = relationship()


class GameSnapshot(Base):
    """A game's engine state after its first `ply` moves, pickled and signed, so
    pages, mails and the pipeline start from it instead of replaying from move 1.

    The move log stays the truth: a snapshot is used only when its engine
    fingerprint is the running engine's and its log digest matches the stored
    moves (see pbem.services.snapshots)."""

    __tablename__ = "game_snapshots"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))  # the engine code it was made by
    log_digest: Mapped[str] = mapped_column(String(64))  # setup and moves 1..ply
    signature: Mapped[str] = mapped_column(String(64))  # HMAC of the data
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Lease(Base):
    """A role one process may hold at a time (the beat), until `expires_at`
    unless its holder renews it: a second process waits and takes over when
    the holder stops renewing (pbem.beat_lease)."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[datetime]


class ChatMessage(Base):
    """What a player wrote to the others, by page, API or mail; kept with the game."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(Text)
    channel: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Set when a moderator removed the line, or its writer deleted their
    # account; its text is then erased and pages show it as removed.
    removed_at: Mapped[datetime | None]

    seat: Mapped[Seat] = relationship()


class ClockStop(Base):
    """A span in which clocks stop: a player's vacation (every game of theirs)
    or, with `game_id`, a paused game. `ended_at` None: not over yet."""

    __tablename__ = "clock_stops"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class GameEvent(Base):
    """What happened to a game outside its moves: timeouts, organiser
    actions and what the rules did by themselves (a festival auction's
    outcome), shown in its history beside the moves."""

    __tablename__ = "game_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ply: Mapped[int]  # moves played before it
    kind: Mapped[str] = mapped_column(String(32))
    seat_position: Mapped[int | None]
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    text: Mapped[str] = mapped_column(Text)  # in English
    # Its template and parameters (pbem.i18n.phrases; for kind "rules", the
    # engine's message, as refusals keep it), written in each reader's
    # language; None for events from before.
    phrase: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Rating(Base):
    """A player's current rating in one game (ruleset), across every rated game
    of it (pbem.services.ratings); openskill's mu and sigma."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("user_id", "ruleset"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    ruleset: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatingChange(Base):
    """What one rated game did to one player's rating: the history a profile
    plots. One row per (user, game), so a game is never rated twice."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("user_id", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)  # the conservative value after the game
    # Bots sat at the table (they are left out of the rating), and a seat left
    # the game (resigned or lost on time) and so ranked last without playing on.
    against_bots: Mapped[bool] = mapped_column(Boolean)
    forfeit: Mapped[bool] = mapped_column(Boolean)
    rated_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship()


class League(Base):
    """A club's competition in one game: who organises it, who enters, and
    what every season's games are made of."""

    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(16), unique=True, default=public_id)
    name: Mapped[str] = mapped_column(String(100))
    ruleset: Mapped[str] = mapped_column(String(40))
    players_per_game: Mapped[int]
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # TimeControl.to_json() for every game, or None: no clock.
    time_control: Mapped[dict[str, Any] | None]
    # League points per place, best first (texts like "1/2"); None: the defaults.
    points_table: Mapped[list[str] | None] = mapped_column(JSON)
    # Anyone with the league's link may join; else only those invited.
    open: Mapped[bool] = mapped_column(Boolean, default=False)
    divisions: Mapped[int] = mapped_column(Integer, default=1)
    # The level of the bot that plays for an entrant who withdrew, and of every
    # new game's stand-in (Game.stand_in).
    stand_in: Mapped[str] = mapped_column(
        String(20), default=DEFAULT_LEVEL, server_default=DEFAULT_LEVEL
    )
    # How many move up and down between divisions at a season's end.
    promotion: Mapped[int] = mapped_column(Integer, default=0)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    organisers: Mapped[list[LeagueOrganiser]] = relationship(
        back_populates="league", cascade="all, delete-orphan"
    )
    entrants: Mapped[list[Entrant]] = relationship(
        back_populates="league", order_by="Entrant.id", cascade="all, delete-orphan"
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="league", order_by="Season.number", cascade="all, delete-orphan"
    )


class LeagueOrganiser(Base):
    __tablename__ = "league_organisers"
    __table_args__ = (UniqueConstraint("league_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)

    league: Mapped[League] = relationship(back_populates="organisers")
    user: Mapped[User] = relationship()


class Entrant(Base):
    """A player entered in a league (or invited by address, `user_id` None until
    they accept), in a division; `left_at` once they left the league."""

    __tablename__ = "entrants"
    __table_args__ = (
        UniqueConstraint("league_id", "user_id"),
        UniqueConstraint("league_id", "invited_email", name="uq_entrants_league_id_email"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    invited_email: Mapped[str | None] = mapped_column(String(320))
    division: Mapped[int] = mapped_column(Integer, default=1)
    joined_at: Mapped[datetime | None]
    left_at: Mapped[datetime | None]

    league: Mapped[League] = relationship(back_populates="entrants")
    user: Mapped[User | None] = relationship()


class Season(Base):
    """One season of a league: its schedule (per division, rounds of games of
    season entrant ids in seat order) and how its rounds are paced."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    number: Mapped[int]  # 1, 2, ... within the league
    ruleset_version: Mapped[int]  # pinned for the whole season
    seed: Mapped[str] = mapped_column(String(64))
    legs: Mapped[int] = mapped_column(Integer, default=1)
    # "all": every game at once; "rounds": a round starts when the previous
    # one of its division ends or, with round_days, at most that many days
    # after the previous one started.
    pacing: Mapped[str] = mapped_column(String(8), default="all")
    round_days: Mapped[int | None]
    # {"<division>": [[[entrant id, ...], ...], ...]}: rounds of games.
    schedule: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]

    league: Mapped[League] = relationship(back_populates="seasons")
    entrants: Mapped[list[SeasonEntrant]] = relationship(
        back_populates="season", order_by="SeasonEntrant.id", cascade="all, delete-orphan"
    )
    games: Mapped[list[Game]] = relationship(
        back_populates="season", order_by=lambda: (Game.division, Game.round, Game.number)
    )


class SeasonEntrant(Base):
    """A league entrant's place in one season: a row of its division's table.
    `user_id` is who plays it now (the organiser may replace the player);
    `withdrawn_at` once it left the season (bots play its games on)."""

    __tablename__ = "season_entrants"

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("entrants.id", ondelete="CASCADE"))
    division: Mapped[int]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(100))
    withdrawn_at: Mapped[datetime | None]

    season: Mapped[Season] = relationship(back_populates="entrants")
    entrant: Mapped[Entrant] = relationship()
    user: Mapped[User | None] = relationship()


class Outbox(Base):
    """A notification to send; the mail sender marks it sent.

    To a user, or (`to_address`) to a stranger who wrote in and gets a refusal.
    A sender leases a row until `claimed_until` so two workers never send it at
    once; `message_id` is fixed the first time the mail is written, so a resend
    after a worker died is recognisably the same mail.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_created", "status", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    recipient_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    to_address: Mapped[str | None] = mapped_column(String(320))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default=OutboxStatus.PENDING)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_until: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    message_id: Mapped[str | None] = mapped_column(String(512))
    # Not to be sent before this (the end of the recipient's quiet hours).
    not_before: Mapped[datetime | None]

    recipient: Mapped[User | None] = relationship()


class WebhookFormat(enum.StrEnum):
    """What a hook's receiver reads: our signed JSON, or a chat service's own shape."""

    JSON = "json"
    DISCORD = "discord"
    SLACK = "slack"
    MATRIX = "matrix"


class Webhook(Base):
    """An address pbem posts to: a player's own turns (neither game nor league),
    or everything about a game or a league its organiser asked for. The secret
    signs JSON deliveries, so it is kept; it is shown once, when made."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2000))
    format: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    league_id: Mapped[int | None] = mapped_column(
        ForeignKey("leagues.id", ondelete="CASCADE"), index=True
    )
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Deliveries that failed for good in a row; at the limit the hook is switched off.
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    disabled_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()
    game: Mapped[Game | None] = relationship()
    league: Mapped[League | None] = relationship()


class NoticeChoice(Base):
    """Which channels tell a player of their turns: per game, or (game None)
    the player's default for games without a choice of their own. A muted
    game tells them nothing on any channel. No row: every channel."""

    __tablename__ = "notice_choices"
    __table_args__ = (UniqueConstraint("user_id", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    mail: Mapped[bool] = mapped_column(Boolean, default=True)
    push: Mapped[bool] = mapped_column(Boolean, default=True)
    webhooks: Mapped[bool] = mapped_column(Boolean, default=True)
    muted: Mapped[bool] = mapped_column(Boolean, default=False)

    game: Mapped[Game | None] = relationship()


class PushSubscription(Base):
    """A browser's Web Push subscription (one per device that opted in)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PushNotice(Base):
    """A browser notification owed to a player (on each of their devices),
    written in the change's transaction like a webhook delivery: "your turn"
    (stacked: it names how many games wait when it is sent) or one warning
    before a deadline (`kind` "deadline")."""

    __tablename__ = "push_notices"
    __table_args__ = (Index("ix_push_notices_status_next", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_until: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)


class DeliveryStatus(enum.StrEnum):
    PENDING = "pending"  # waiting for `next_attempt_at`
    SENDING = "sending"  # handed to a sender under a lease (`claimed_until`)
    SENT = "sent"
    FAILED = "failed"  # refused, or still failing a day after it was made


class WebhookDelivery(Base):
    """One event for one hook, written in the transaction of the change it
    tells of and posted by a worker after the commit, like the outbox.
    `answer_status` keeps the status the receiver answered, and `last_error`
    the class of the last failure ("timed out", "HTTP 503"): never the
    receiver's words, which its owner could read back."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_status_next", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    webhook_id: Mapped[int] = mapped_column(
        ForeignKey("webhooks.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default=DeliveryStatus.PENDING)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_until: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime | None]
    answer_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)

    webhook: Mapped[Webhook] = relationship()


class ReceiverHost(Base):
    """A host pbem sends webhooks or push to, as every sender sees it: one
    that keeps timing out is left alone for a while (`backed_off_until`),
    for every hook and device that names it."""

    __tablename__ = "receiver_hosts"

    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    timeouts: Mapped[int] = mapped_column(Integer, default=0)  # in a row
    backed_off_until: Mapped[datetime | None]


class ReceiverSlot(Base):
    """One of the requests that may be in flight to a host at once
    (PBEM_RECEIVER_CONCURRENCY), taken by a sender under a lease, so a
    sender that died frees it when the lease runs out."""

    __tablename__ = "receiver_slots"

    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    claimed_until: Mapped[datetime | None]


class InboundStatus(enum.StrEnum):
    RECEIVED = "received"  # stored, not yet read
    DONE = "done"  # read; `outcome` says what came of it


class InboundMessage(Base):
    """A mail that came in, stored raw before anything reads it; one row per Message-ID."""

    __tablename__ = "inbound_messages"
    __table_args__ = (Index("ix_inbound_messages_status_received", "status", "received_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(512), unique=True)
    # The mail as it came; None once the sweep has forgotten it (PBEM_MAIL_KEEP_DAYS).
    raw: Mapped[bytes | None] = mapped_column(LargeBinary)
    channel: Mapped[str] = mapped_column(String(16))  # imap, smtp, lmtp, http
    envelope_from: Mapped[str | None] = mapped_column(String(320))
    envelope_to: Mapped[list[str]] = mapped_column(JSON, default=list)
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default=InboundStatus.RECEIVED)
    outcome: Mapped[str | None] = mapped_column(String(32))
    detail: Mapped[str | None] = mapped_column(Text)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id", ondelete="SET NULL"))
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("submissions.id", ondelete="SET NULL")
    )
    processed_at: Mapped[datetime | None]


class BoardPicture(Base):
    """A drawn board picture kept for reuse (pbem.services.picture_store), on
    PostgreSQL. No foreign key to games on purpose: checking one would wait
    for the row lock a worker holds on the game while it judges a move."""

    __tablename__ = "board_pictures"

    game: Mapped[str] = mapped_column(String(16), primary_key=True)  # Game.public_id
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    viewer: Mapped[str] = mapped_column(String(16), primary_key=True)
    drawing: Mapped[str] = mapped_column(String(32), primary_key=True)
    png: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
