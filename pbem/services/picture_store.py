"""Where drawn board pictures are kept, so each is drawn once.

The store follows the database, because every process that shares the
database must share the pictures too:
- a SQLite file: a folder beside it (`<database file>-pictures`, like SQLite's
  own `-wal` file). SQLite has one write lock for the whole database; a
  board.png request writing a picture there would queue behind the worker
  judging a move and hold the worker up in turn (a browser asks for board.png
  on every page load). A SQLite file is one machine's, so the folder beside
  it is seen by every process that can open the database. A picture is
  written under a temporary name and renamed: a reader finds all of it or none.
- PostgreSQL (and in-memory SQLite): the board_pictures table, shared by web
  and worker machines. A picture is written after drawing, on a connection
  and in a transaction of its own (INSERT ... ON CONFLICT DO NOTHING): it
  never waits for nor holds the locks of the request or task that drew it.
A picture that cannot be written is not lost work: the caller serves the
drawn one anyway, and the next request draws it again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from pbem.db import rows_changed
from pbem.models import BoardPicture

log = logging.getLogger(__name__)

INSERTS: dict[str, Callable[[type[BoardPicture]], postgresql.Insert | sqlite.Insert]] = {
    "postgresql": postgresql.insert,
    "sqlite": sqlite.insert,
}


@dataclass(frozen=True)
class PictureKey:
    """One picture: a game (its public id), a ply, a viewer ("spectator" or
    "seat<N>") and a digest of everything else the drawing depends on, the
    language of its words included (kept beside it to draw in)."""

    game: str
    ply: int
    viewer: str
    drawing: str
    language: str = "en"

    @property
    def etag(self) -> str:
        return f"{self.game}.{self.ply}.{self.viewer}.{self.drawing}"


class PictureStore(Protocol):
    def get(self, key: PictureKey) -> bytes | None: ...

    def put(self, key: PictureKey, png: bytes) -> None:
        """Keep the picture if possible; never raises."""

    def prune(self, before: datetime) -> int:
        """Forget the pictures kept before `before`; how many."""

    def forget(self, game: str) -> None:
        """Forget every picture of the game (its public id): drawn anew when asked."""


class FolderStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, key: PictureKey) -> Path:
        return self.folder / key.game / f"{key.ply}.{key.viewer}.{key.drawing}.png"

    def get(self, key: PictureKey) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:  # an unreadable store costs a drawing, not the request
            log.debug("board picture %s not read: %s", key.etag, exc)
            return None

    def put(self, key: PictureKey, png: bytes) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
                f.write(png)
            os.replace(f.name, path)
        except OSError as exc:
            log.debug("board picture %s not kept: %s", key.etag, exc)

    def prune(self, before: datetime) -> int:
        cutoff = before.timestamp()
        pruned = 0
        for game in self.folder.glob("*"):
            for path in game.glob("*"):  # pictures and any temporary file left behind
                with contextlib.suppress(FileNotFoundError):  # pruned elsewhere at once
                    if path.stat().st_mtime < cutoff:
                        path.unlink()
                        pruned += path.suffix == ".png"
            with contextlib.suppress(OSError):  # the folder is kept while it holds files
                game.rmdir()
        return pruned

    def forget(self, game: str) -> None:
        shutil.rmtree(self.folder / game, ignore_errors=True)


class TableStore:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, key: PictureKey) -> bytes | None:
        return self.session.execute(
            select(BoardPicture.png).where(
                BoardPicture.game == key.game,
                BoardPicture.ply == key.ply,
                BoardPicture.viewer == key.viewer,
                BoardPicture.drawing == key.drawing,
            )
        ).scalar_one_or_none()

    def put(self, key: PictureKey, png: bytes) -> None:
        engine = self.session.get_bind().engine
        insert = INSERTS[engine.dialect.name](BoardPicture).values(
            game=key.game, ply=key.ply, viewer=key.viewer, drawing=key.drawing, png=png
        )
        try:
            with engine.begin() as connection:
                connection.execute(insert.on_conflict_do_nothing())
        except SQLAlchemyError as exc:
            log.debug("board picture %s not kept: %s", key.etag, exc)

    def prune(self, before: datetime) -> int:
        deleted = self.session.execute(delete(BoardPicture).where(BoardPicture.created_at < before))
        return rows_changed(deleted)

    def forget(self, game: str) -> None:
        self.session.execute(delete(BoardPicture).where(BoardPicture.game == game))


def store_for(session: Session) -> PictureStore:
    """The store shared by every process using the session's database."""
    url = session.get_bind().engine.url
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return FolderStore(Path(f"{url.database}-pictures"))
    return TableStore(session)
