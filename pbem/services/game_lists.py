"""The lists of games a player sees, one page at a time: a club player may
have thousands of games, and neither the queries nor the page may grow with
them."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import ColumnElement, CompoundSelect, Select, and_, func, or_, select, union
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.interfaces import LoaderOption

from pbem.models import Game, GameStatus, League, Season, Seat, User

PAGE_SIZE = 50
# "My games" shows a page of each of its four sections at once.
MY_GAMES_PAGE_SIZE = 25


class Section(enum.StrEnum):
    TURN = "turn"  # active, and one of the player's seats must act
    WAITING = "waiting"  # active, waiting for the others
    OPEN = "open"  # waiting for players
    FINISHED = "finished"


@dataclass(frozen=True)
class Page:
    games: list[Game]
    number: int  # 1-based
    count: int  # how many pages the section has (at least 1)
    total: int  # games in the section


def open_to(user: User) -> ColumnElement[bool]:
    """Games waiting for players that `user` made, or where a seat is kept
    for nobody or for their address: an invitation shows to its invitee only."""
    open_seats = select(Seat.game_id).where(
        Seat.user_id.is_(None),
        Seat.bot.is_(None),
        or_(Seat.invited_email.is_(None), Seat.invited_email == user.email),
    )
    return and_(
        Game.status == GameStatus.OPEN,
        or_(Game.created_by_id == user.id, Game.id.in_(open_seats)),
    )


def visible_to(user: User) -> ColumnElement[bool]:
    """The user's own games (played or organised) and the open games they may see:
    one set of ids, each part found through its own index."""
    return Game.id.in_(union(*_my_game_parts(user), select(Game.id).where(open_to(user))))


NEWEST_FIRST = (Game.created_at.desc(), Game.id.desc())


def _my_game_ids(user: User) -> CompoundSelect[int]:
    """The games the user plays in or organises (made, perhaps without a seat)."""
    return union(*_my_game_parts(user))


def _my_game_parts(user: User) -> tuple[Select[int], Select[int]]:
    """The games the user has a seat in, and those they made: a union of these
    stays flat (SQLite refuses a union inside a union)."""
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    return seated, select(Game.id).where(Game.created_by_id == user.id)


def my_games(
    session: Session, user: User, pages: Mapping[Section, int], size: int = MY_GAMES_PAGE_SIZE
) -> dict[Section, Page]:
    """Each section's page `pages[section]` (default 1, clamped to the pages there are)."""
    turn, waiting = _active_ids(session, user)
    finished = select(Game.id).where(
        Game.status == GameStatus.FINISHED, Game.id.in_(_my_game_ids(user))
    )
    open_ids = select(Game.id).where(open_to(user))
    return _with_games(
        session,
        {
            Section.TURN: _slice_of_ids(turn, pages.get(Section.TURN, 1), size),
            Section.WAITING: _slice_of_ids(waiting, pages.get(Section.WAITING, 1), size),
            Section.OPEN: _slice_of_query(session, open_ids, pages.get(Section.OPEN, 1), size),
            Section.FINISHED: _slice_of_query(
                session, finished, pages.get(Section.FINISHED, 1), size
            ),
        },
    )


def played_by(
    session: Session, user: User, pages: Mapping[GameStatus, int], size: int = PAGE_SIZE
) -> dict[GameStatus, Page]:
    """Page `pages[status]` of the games with each status where the user holds
    a seat (a profile's lists: games organised without a seat are not the player's)."""
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    return _with_games(
        session,
        {
            status: _slice_of_query(
                session,
                select(Game.id).where(Game.status == status, Game.id.in_(seated)),
                number,
                size,
            )
            for status, number in pages.items()
        },
    )


def visible_games(session: Session, user: User, number: int, size: int = PAGE_SIZE) -> Page:
    """Page `number` of the games `visible_to` the user, newest first (the API's
    list); past the last page it is empty rather than the last one again."""
    ids = select(Game.id).where(visible_to(user))
    return _with_games(session, {0: _slice_of_query(session, ids, number, size, clamp=False)})[0]


def _active_ids(session: Session, user: User) -> tuple[list[int], list[int]]:
    """The user's active games, newest first, split by whether they must act
    (a game they organise without a seat waits for others). One light query,
    from the user's own games: whose turn it is lives in a JSON column."""
    rows = session.execute(
        select(Game.id, Game.to_act, Seat.position)
        .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id == user.id))
        .where(Game.status == GameStatus.ACTIVE, Game.id.in_(_my_game_ids(user)))
        .order_by(*NEWEST_FIRST)
    )
    acting: dict[int, bool] = {}
    for game_id, to_act, position in rows:
        acting[game_id] = acting.get(game_id, False) or position in (to_act or [])
    turn = [game_id for game_id, mine in acting.items() if mine]
    waiting = [game_id for game_id, mine in acting.items() if not mine]
    return turn, waiting


@dataclass(frozen=True)
class _Slice:
    """A page before its games are loaded: their ids, in the list's order."""

    ids: list[int]
    number: int
    count: int
    total: int


def _page_count(total: int, size: int = PAGE_SIZE) -> int:
    return max(1, -(-total // size))


def _clamp(number: int, count: int) -> int:
    return min(max(number, 1), count)


def _slice_of_ids(ids: Sequence[int], number: int, size: int) -> _Slice:
    count = _page_count(len(ids), size)
    number = _clamp(number, count)
    return _Slice(list(ids[(number - 1) * size : number * size]), number, count, len(ids))


def _slice_of_query(
    session: Session,
    ids: Select[int],
    number: int,
    size: int = PAGE_SIZE,
    clamp: bool = True,
) -> _Slice:
    total = session.scalar(select(func.count()).select_from(ids.subquery())) or 0
    count = _page_count(total, size)
    if clamp:
        number = _clamp(number, count)
    chosen = session.scalars(ids.order_by(*NEWEST_FIRST).offset((number - 1) * size).limit(size))
    return _Slice(list(chosen), number, count, total)


# What a listed game shows besides its own row: seats, and a league game's season
# and league (its group in "my games", its place and organisers in the API).
LISTED: tuple[LoaderOption, ...] = (
    selectinload(Game.seats),
    selectinload(Game.season).joinedload(Season.league).selectinload(League.organisers),
)


Key = TypeVar("Key")


def _with_games(session: Session, slices: Mapping[Key, _Slice]) -> dict[Key, Page]:
    """The slices' games `LISTED`, loaded together: a few queries for a whole
    list, however many games and sections it has."""
    wanted = {game_id for piece in slices.values() for game_id in piece.ids}
    by_id: dict[int, Game] = {}
    if wanted:
        loaded = session.scalars(select(Game).where(Game.id.in_(wanted)).options(*LISTED))
        by_id = {game.id: game for game in loaded}
    return {
        key: Page([by_id[game_id] for game_id in piece.ids], piece.number, piece.count, piece.total)
        for key, piece in slices.items()
    }


def seats_to_act(session: Session, user: User) -> list[Seat]:
    """The user's seats that must act now in games going on, the soonest
    deadline first and those without one last (for the digest and the calendar)."""
    seats = session.scalars(
        select(Seat)
        .join(Game, Game.id == Seat.game_id)
        .where(
            Seat.user_id == user.id,
            Seat.bot.is_(None),
            Game.status == GameStatus.ACTIVE,
        )
        .options(selectinload(Seat.game))
    )
    acting = [seat for seat in seats if seat.position in (seat.game.to_act or [])]
    return sorted(acting, key=lambda seat: (seat.timeout_at is None, seat.timeout_at, seat.id))
