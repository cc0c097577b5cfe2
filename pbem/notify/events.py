"""What the game's events send to webhooks, recorded in the transaction that
announced them (pbem.signals.record): a player's own hooks hear of their
turns, as their choices for the game, their digest and quiet hours allow;
a game's or league's hooks (its organisers') hear of every move, the game's
end, the standings changing and a round starting."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Flask
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from pbem import signals
from pbem.models import Game, Season, Webhook, utcnow
from pbem.notify.queue import (
    GAME_ENDED,
    MOVE,
    ROUND_STARTED,
    STANDINGS_CHANGED,
    YOUR_TURN,
    queue_delivery,
)
from pbem.services.deadlines import out_of_quiet_hours
from pbem.services.notice_choices import tells


def init_app(app: Flask) -> None:
    signals.record(app, signals.turn_started, _turn_started)
    signals.record(app, signals.move_applied, _moved)
    signals.record(app, signals.game_ended, _ended)
    signals.record(app, signals.league_round_started, _round_started)


def _active(query: Any) -> Any:
    return query.where(Webhook.disabled_at.is_(None))


def _turn_started(
    _app: Flask, session: Session, game_id: int, positions: list[int], **_about: object
) -> None:
    game = session.get_one(Game, game_id)
    players = {
        seat.user_id: seat
        for seat in game.seats
        if seat.position in positions and seat.user_id is not None and not seat.has_left
    }
    if not players:
        return
    personal = session.scalars(
        _active(select(Webhook)).where(
            Webhook.user_id.in_(players),
            Webhook.game_id.is_(None),
            Webhook.league_id.is_(None),
        )
    )
    now = utcnow()
    for hook in personal:
        seat = players[hook.user_id]
        user = seat.user
        assert user is not None
        if user.digest_hour is None and tells(session, user.id, game_id, "webhooks"):
            queue_delivery(
                session,
                hook,
                YOUR_TURN,
                {"game": game_id, "seats": [seat.position]},
                not_before=out_of_quiet_hours(now, user),
            )


def _game_hooks(session: Session, game: Game) -> Iterable[Webhook]:
    """The hooks of the game and of its league."""
    league_id = game.season.league_id if game.season is not None else None
    return session.scalars(
        _active(select(Webhook)).where(
            or_(Webhook.game_id == game.id, Webhook.league_id == league_id)
            if league_id is not None
            else Webhook.game_id == game.id
        )
    )


def _moved(
    _app: Flask, session: Session, game_id: int, position: int, plies: list[int], **_about: object
) -> None:
    game = session.get_one(Game, game_id)
    for hook in _game_hooks(session, game):
        queue_delivery(
            session, hook, MOVE, {"game": game_id, "mover": position, "seats": list(game.to_act)}
        )


def _ended(_app: Flask, session: Session, game_id: int, abandoned: bool, **_about: object) -> None:
    game = session.get_one(Game, game_id)
    for hook in _game_hooks(session, game):
        queue_delivery(session, hook, GAME_ENDED, {"game": game_id, "abandoned": abandoned})
        if hook.league_id is not None and not abandoned:
            queue_delivery(session, hook, STANDINGS_CHANGED, {"game": game_id})


def _round_started(
    _app: Flask, session: Session, season_id: int, division: int, round: int, **_about: object
) -> None:
    season = session.get_one(Season, season_id)
    hooks = session.scalars(_active(select(Webhook)).where(Webhook.league_id == season.league_id))
    for hook in hooks:
        queue_delivery(
            session,
            hook,
            ROUND_STARTED,
            {"season": season_id, "division": division, "round": round},
        )
