"""A finished game's result, kept on the game when it ends so tables and
profiles read it without replaying the game (games that ended before results
were kept are replayed once and their result stored)."""

from __future__ import annotations

from typing import Any

import engine
from pbem.models import Game, GameStatus
from pbem.services.replay import engine_game


def keep_result(game: Game, result: engine.Result) -> None:
    game.result = result.to_json()


def game_result(game: Game) -> engine.Result | None:
    """The result of a finished game; None while it goes on or when it was
    abandoned without one."""
    if game.status != GameStatus.FINISHED:
        return None
    if game.result is None:
        if game.abandoned_at is not None:
            return None
        result = engine_game(game).result()
        if result is None:
            return None
        keep_result(game, result)
    assert game.result is not None  # kept just above when it was not yet
    return from_json(game.result)


def from_json(data: dict[str, Any]) -> engine.Result:
    return engine.Result(
        ranking=tuple(tuple(group) for group in data["ranking"]),
        scores=tuple(data["scores"]),
        reason=data["reason"],
        unranked=tuple(data.get("unranked", ())),
    )
