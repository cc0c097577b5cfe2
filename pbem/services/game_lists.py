"""The lists of games a player sees, one page at a time: a club player may
have thousands of games, and neither the queries nor the page may grow with
them."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, and_, func, or_, select, union
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.interfaces import LoaderOption

from pbem.models import Game, GameStatus, League, Season, Seat, User

PAGE_SIZE = 50


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
    return Game.id.in_(union(_my_game_ids(user), select(Game.id).where(open_to(user))))


NEWEST_FIRST = (Game.created_at.desc(), Game.id.desc())


def _my_game_ids(user: User) -> Select[tuple[int]]:
    """The games the user plays in or organises (made, perhaps without a seat)."""
    organised = select(Game.id).where(Game.created_by_id == user.id)
    return select(Seat.game_id).where(Seat.user_id == user.id).union(organised)


def my_games(session: Session, user: User, pages: Mapping[str, int]) -> dict[Section, Page]:
    """Each section's page `pages[section]` (default 1, clamped to the pages there are)."""
    turn, waiting = _active_ids(session, user)
    finished = select(Game.id).where(
        Game.status == GameStatus.FINISHED, Game.id.in_(_my_game_ids(user))
    )
    return {
        Section.TURN: _page_of_ids(session, turn, pages.get(Section.TURN, 1)),
        Section.WAITING: _page_of_ids(session, waiting, pages.get(Section.WAITING, 1)),
        Section.OPEN: _page_of_query(
            session, select(Game.id).where(open_to(user)), pages.get(Section.OPEN, 1)
        ),
        Section.FINISHED: _page_of_query(session, finished, pages.get(Section.FINISHED, 1)),
    }


def played_by(
    session: Session, user: User, status: GameStatus, number: int, size: int = PAGE_SIZE
) -> Page:
    """Page `number` of the games with this status where the user holds a seat
    (a profile's lists: games organised without a seat are not the player's)."""
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    ids = select(Game.id).where(Game.status == status, Game.id.in_(seated))
    return _page_of_query(session, ids, number, size)


def visible_games(session: Session, user: User, number: int, size: int = PAGE_SIZE) -> Page:
    """Page `number` of the games `visible_to` the user, newest first (the API's
    list); past the last page it is empty rather than the last one again."""
    ids = select(Game.id).where(visible_to(user))
    return _page_of_query(session, ids, number, size, clamp=False)


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


def _page_count(total: int, size: int = PAGE_SIZE) -> int:
    return max(1, -(-total // size))


def _clamp(number: int, count: int) -> int:
    return min(max(number, 1), count)


def _page_of_ids(session: Session, ids: Sequence[int], number: int) -> Page:
    count = _page_count(len(ids))
    number = _clamp(number, count)
    chosen = ids[(number - 1) * PAGE_SIZE : number * PAGE_SIZE]
    return Page(_load(session, chosen), number, count, len(ids))


def _page_of_query(
    session: Session,
    ids: Select[tuple[int]],
    number: int,
    size: int = PAGE_SIZE,
    clamp: bool = True,
) -> Page:
    total = session.scalar(select(func.count()).select_from(ids.subquery())) or 0
    count = _page_count(total, size)
    if clamp:
        number = _clamp(number, count)
    chosen = session.scalars(ids.order_by(*NEWEST_FIRST).offset((number - 1) * size).limit(size))
    return Page(_load(session, list(chosen)), number, count, total)


# What a listed game shows besides its own row: seats, and a league game's season
# and league (its group in "my games", its place and organisers in the API).
LISTED: tuple[LoaderOption, ...] = (
    selectinload(Game.seats),
    selectinload(Game.season).joinedload(Season.league).selectinload(League.organisers),
)


def _load(session: Session, ids: Sequence[int]) -> list[Game]:
    """The games `LISTED`, in the order of `ids`: a few queries, however many games."""
    if not ids:
        return []
    games = session.scalars(select(Game).where(Game.id.in_(ids)).options(*LISTED))
    by_id = {game.id: game for game in games}
    return [by_id[game_id] for game_id in ids]


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
