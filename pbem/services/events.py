"""A game's history outside its moves: timeouts and organiser actions."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.i18n.phrases import Phrase, written
from pbem.models import Game, GameEvent, Move, User


def record_event(
    session: Session,
    game: Game,
    kind: str,
    said: Phrase,
    seat_position: int | None = None,
    actor: User | None = None,
) -> GameEvent:
    """Store the event after the moves played so far; the caller commits."""
    ply = session.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id))
    event = GameEvent(
        game_id=game.id,
        ply=ply or 0,
        kind=kind,
        text=said.english(),
        phrase=said.to_json(),
        seat_position=seat_position,
        actor_id=actor.id if actor else None,
    )
    session.add(event)
    return event


def event_text(event: GameEvent) -> str:
    """What happened, in the current language."""
    return written(event.phrase if event.phrase is not None else event.text)


def events_of(session: Session, game: Game) -> list[GameEvent]:
    return list(
        session.scalars(
            select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.id)
        )
    )


def events_by_ply(events: Iterable[GameEvent]) -> dict[int, list[GameEvent]]:
    """The events keyed by the number of moves played before them: a history
    shows those of ply p right after its p-th move (ply 0: before the first)."""
    grouped: dict[int, list[GameEvent]] = defaultdict(list)
    for event in events:
        grouped[event.ply].append(event)
    return dict(grouped)
