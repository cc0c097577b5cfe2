"""A game's history outside its moves: timeouts, organiser actions, and
what the rules did by themselves (a festival auction's outcome: kind RULES),
which mails tell with the moves it followed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import engine
from engine.core.messages import Message
from pbem.i18n import current_language
from pbem.i18n.phrases import Phrase, written
from pbem.i18n.rules import describe_refusal
from pbem.models import Game, GameEvent, Move, User

RULES = "rules"  # what the rules did by themselves, told as the engine says it


def record_event(
    session: Session,
    game: Game,
    kind: str,
    said: Phrase | Message,
    seat_position: int | None = None,
    actor: User | None = None,
) -> GameEvent:
    """Store the event after the moves played so far; the caller commits.
    `said`: a phrase of the server's, or an engine message (RULES)."""
    ply = session.scalar(select(func.count()).select_from(Move).where(Move.game_id == game.id))
    event = GameEvent(
        game_id=game.id,
        ply=ply or 0,
        kind=kind,
        text=said.english() if isinstance(said, Phrase) else said.text(),
        phrase=said.to_json(),
        seat_position=seat_position,
        actor_id=actor.id if actor else None,
    )
    session.add(event)
    return event


def record_announcements(session: Session, game: Game, played: engine.Game, since: int) -> None:
    """The rules' announcements after the first `since` (those the moves just
    stored made), as events after those moves; the caller commits."""
    for said in played.state.announcements(played.seats)[since:]:
        record_event(session, game, RULES, said)


def event_text(event: GameEvent) -> str:
    """What happened, in the current language."""
    if event.kind == RULES and event.phrase is not None:  # an engine message, as refusals are
        return describe_refusal(event.phrase, event.text, current_language())
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
