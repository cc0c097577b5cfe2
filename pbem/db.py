"""The database connection: one SQLAlchemy engine per app, one session per
request or task, and the per-game lock the submission pipeline relies on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app, g
from sqlalchemy import CursorResult, Engine, Result, create_engine, event, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from pbem import signals
from pbem.models import Game, League, Season, SeasonEntrant, User

EXTENSION = "pbem.db"
UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE
_Row = TypeVar("_Row", Game, Season, SeasonEntrant, League, User)


class Database:
    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(
            url,
            pool_pre_ping=not self.is_sqlite,
            connect_args={"timeout": 30} if self.is_sqlite else {},
        )
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session closed whatever happens; the caller commits."""
        session = self.sessionmaker()
        try:
            yield session
        finally:
            session.close()

    def forget_old_pages(self) -> None:
        """SQLite: fold the write-ahead log into the file and empty it, so rows
        just erased (with secure_delete) leave no older copy of their pages in
        the log either. Nothing to do on PostgreSQL, whose vacuum does it."""
        if self.is_sqlite:
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def dispose_after_fork(self) -> None:
        """In a forked child: start a pool of its own, leaving the parent's
        connections alone. A psycopg connection used by two processes mixes
        their replies and can crash either."""
        self.engine.dispose(close=False)


def lock_game(session: Session, game_id: int) -> Game:
    """Serialise everything that changes one game until the transaction ends:
    moves, organiser actions, timeouts, vacations, withdrawals. Each writer
    re-checks what it relies on after taking it.

    The version bump takes the lock on both databases: on PostgreSQL the
    update's own row lock (FOR NO KEY UPDATE: writers wait for each other,
    but not for rows that merely refer to the game, a mail queued or a turn
    stored, which takes a cycle of waits out of reach), on SQLite its write
    lock. The new version also tells readers the game changed.
    """
    session.execute(
        update(Game).where(Game.id == game_id).values(lock_version=Game.lock_version + 1)
    )
    # Its seats too, as they are now: writers re-check who holds them.
    return session.execute(
        select(Game)
        .where(Game.id == game_id)
        .options(selectinload(Game.seats))
        .execution_options(populate_existing=True)
    ).scalar_one()


def lock_season(session: Session, season_id: int) -> Season:
    """Serialise the season-wide steps (a round's start, the season's end) so
    the last of several games finishing at once sees the others finished.
    Taken after a game's lock, never before one."""
    return _lock_row(session, Season, season_id, Season.number)


def lock_place(session: Session, place_id: int) -> SeasonEntrant:
    """Serialise what changes one entrant's place in a season (withdrawals,
    replacements), so two of them cannot both act on the place as it was.
    Taken before the locks of the place's games."""
    return _lock_row(session, SeasonEntrant, place_id, SeasonEntrant.name)


def lock_league(session: Session, league_id: int) -> League:
    """Serialise joining a league and starting its seasons, so two at once
    make one entrant or one season and the other is refused."""
    league = _lock_row(session, League, league_id, League.name)
    session.expire(league, ["seasons", "entrants"])  # as they are now, under the lock
    return league


def lock_user(session: Session, user_id: int) -> User:
    """Serialise changes to one user's clocks (a vacation started twice at
    once must start once) until the transaction ends."""
    return _lock_row(session, User, user_id, User.name)


def _lock_row(session: Session, model: type[_Row], row_id: int, column: Any) -> _Row:
    """PostgreSQL: FOR NO KEY UPDATE, which serialises these writers without
    waiting for the key share locks that rows referring to this one take.
    SQLite: its write lock, taken by a write that changes nothing."""
    key = model.id
    if _is_sqlite(session):
        session.execute(update(model).where(key == row_id).values({column: column}))
    else:
        session.execute(select(key).where(key == row_id).with_for_update(key_share=True))
    return _fresh(session, model, row_id)


def _fresh(session: Session, model: type[_Row], row_id: int) -> _Row:
    """The row as committed now, whatever the session held before the lock."""
    key = model.id
    return session.execute(
        select(model).where(key == row_id).execution_options(populate_existing=True)
    ).scalar_one()


def rows_changed(result: Result[*tuple[Any, ...]]) -> int:
    """The rows an UPDATE or DELETE run by a session changed: its result is a
    CursorResult, though `Session.execute` is typed to return any Result."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def _is_sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def is_unique_violation(error: IntegrityError) -> bool:
    """Whether a row clashed with another on a unique constraint (two writers
    making the same row at once), as both databases report it."""
    if getattr(error.orig, "sqlstate", None) == UNIQUE_VIOLATION:
        return True
    return "UNIQUE constraint failed" in str(error.orig)


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # Erased rows (a deleted account, forgotten mail) are overwritten, not
    # left readable in the file's free pages.
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()


def init_app(app: Flask) -> Database:
    database = Database(app.config["PBEM_DATABASE_URL"])
    app.extensions[EXTENSION] = database
    # Per request, even when a caller keeps one app context open across
    # requests (a pre-forked server, a test): no identity map outlives a request.
    app.teardown_request(_close_request_session)
    app.teardown_appcontext(_close_request_session)
    signals.deliver_after_commit(app, database.sessionmaker)
    return database


def get_db() -> Database:
    return current_app.extensions[EXTENSION]


def request_session() -> Session:
    """The session of the current request, closed when the request ends."""
    if "db_session" not in g:
        g.db_session = get_db().sessionmaker()
    return g.db_session


def _close_request_session(_exc: BaseException | None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
