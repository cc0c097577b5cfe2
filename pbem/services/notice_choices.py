"""Which channels tell a player of a game (mail, push, their webhooks), and
whether the game is muted: the game's own choice, else the player's default,
else every channel. Every channel asks here before it queues a notice."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import NoticeChoice

CHANNELS = ("mail", "push", "webhooks")


def everything() -> NoticeChoice:
    return NoticeChoice(mail=True, push=True, webhooks=True, muted=False)


def choice_for(session: Session, user_id: int, game_id: int | None) -> NoticeChoice:
    """The choice that holds for the game (None: the player's default)."""
    rows = {
        row.game_id: row
        for row in session.scalars(
            select(NoticeChoice).where(
                NoticeChoice.user_id == user_id,
                (NoticeChoice.game_id == game_id) | NoticeChoice.game_id.is_(None),
            )
        )
    }
    return rows.get(game_id) or rows.get(None) or everything()


def tells(session: Session, user_id: int, game_id: int | None, channel: str) -> bool:
    choice = choice_for(session, user_id, game_id)
    return not choice.muted and bool(getattr(choice, channel))


def choose(
    session: Session,
    user_id: int,
    game_id: int | None,
    channels: set[str],
    muted: bool = False,
) -> NoticeChoice:
    """Keep the player's choice for the game (None: their default)."""
    row = session.scalar(
        select(NoticeChoice).where(
            NoticeChoice.user_id == user_id,
            NoticeChoice.game_id.is_(None) if game_id is None else NoticeChoice.game_id == game_id,
        )
    )
    if row is None:
        row = NoticeChoice(user_id=user_id, game_id=game_id)
        session.add(row)
    row.mail, row.push, row.webhooks = (channel in channels for channel in CHANNELS)
    row.muted = muted
    session.flush()
    return row
