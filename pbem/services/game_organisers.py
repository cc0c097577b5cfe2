"""Who may act as a game's organiser (extend a deadline, pause, replace a
player, decide a timeout): whoever created it, and for a league game every
organiser of its league."""

from __future__ import annotations

from pbem.models import Game, User


def organiser_ids(game: Game) -> set[int]:
    """Who may act as the game's organiser: its creator, and for a league game
    the league's organisers."""
    ids = {game.created_by_id} if game.created_by_id is not None else set()
    if game.season is not None:
        ids.update(o.user_id for o in game.season.league.organisers)
    return ids


def organises(game: Game, user: User | None) -> bool:
    return user is not None and user.id in organiser_ids(game)
