"""The database connection: one SQLAlchemy engine per app, one session per
request or task, and the per-game lock the submission pipeline relies on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from pbem.models import Game, Season, User

EXTENSION = "pbem.db"


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

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def dispose_after_fork(self) -> None:
        """In a forked child: start a pool of its own, leaving the parent's
        connections alone. A psycopg connection used by two processes mixes
        their replies and can crash either."""
        self.engine.dispose(close=False)


def lock_game(session: Session, game_id: int) -> Game:
    """Serialise everything that changes one game until the transaction ends.

    PostgreSQL: a row lock. SQLite has no SELECT ... FOR UPDATE, so the
    version bump below, issued first, takes SQLite's write lock instead.
    Both databases bump the version, which tells readers the game changed.
    """
    if session.get_bind().dialect.name != "sqlite":
        session.execute(select(Game.id).where(Game.id == game_id).with_for_update())
    session.execute(
        update(Game).where(Game.id == game_id).values(lock_version=Game.lock_version + 1)
    )
    return session.execute(
        select(Game).where(Game.id == game_id).execution_options(populate_existing=True)
    ).scalar_one()


def lock_season(session: Session, season_id: int) -> Season:
    """Serialise the season-wide steps (a round's start, the season's end) so
    the last of several games finishing at once sees the others finished.
    Taken after a game's lock, never before one."""
    if session.get_bind().dialect.name == "sqlite":
        # SQLite's write lock, taken by a write that changes nothing.
        session.execute(update(Season).where(Season.id == season_id).values(number=Season.number))
    else:
        # FOR NO KEY UPDATE: serialises these steps without waiting for the key
        # share locks that inserting or changing rows which refer to the season take.
        session.execute(
            select(Season.id).where(Season.id == season_id).with_for_update(key_share=True)
        )
    return session.execute(
        select(Season).where(Season.id == season_id).execution_options(populate_existing=True)
    ).scalar_one()


def lock_user(session: Session, user_id: int) -> User:
    """Serialise changes to one user's clocks (a vacation started twice at
    once must start once) until the transaction ends. PostgreSQL: a row lock;
    SQLite: an update of the row, issued first, takes its write lock."""
    if session.get_bind().dialect.name != "sqlite":
        session.execute(select(User.id).where(User.id == user_id).with_for_update())
    else:
        session.execute(update(User).where(User.id == user_id).values(name=User.name))
    return session.execute(
        select(User).where(User.id == user_id).execution_options(populate_existing=True)
    ).scalar_one()


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def init_app(app: Flask) -> Database:
    database = Database(app.config["PBEM_DATABASE_URL"])
    app.extensions[EXTENSION] = database
    # Per request, even when a caller keeps one app context open across
    # requests (a pre-forked server, a test): no identity map outlives a request.
    app.teardown_request(_close_request_session)
    app.teardown_appcontext(_close_request_session)
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
