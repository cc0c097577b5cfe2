"""Recompute every rating from scratch (`pbem ratings rebuild`).

Why: games that ended before ratings existed were never rated, and a change
of the rating rules (pbem.services.ratings) only applies to games ending
after it. A rebuild forgets all ratings of a ruleset and rates its finished
games again, in the order they ended, exactly as the pipeline rates a game
when it ends; so running it twice gives the same ratings and one row per
player and game. Each ruleset is rebuilt in one transaction: a reader sees
the old ratings or the new ones, never half of each.

Results come from the games' stored results (pbem.services.results); a game
that ended before results were kept is replayed once and its result stored,
so profiles and tables need not replay it again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select, text, update
from sqlalchemy.orm import Session

from pbem.models import Game, GameStatus, Rating, RatingChange
from pbem.services.ratings import MODEL, rate_game
from pbem.services.results import game_result


@dataclass(frozen=True)
class RulesetRebuild:
    """What a rebuild did for one ruleset."""

    ruleset: str
    games: int  # finished games rated
    players: int  # players with a rating now

    def __str__(self) -> str:
        return f"{self.ruleset}: {self.games} games rated, {self.players} players"


def rebuild_all(session: Session) -> list[RulesetRebuild]:
    """Rebuild the ratings of every ruleset that has finished games or
    ratings, committing each ruleset on its own."""
    rulesets = sorted(
        set(session.scalars(select(Game.ruleset).where(Game.status == GameStatus.FINISHED)))
        | set(session.scalars(select(Rating.ruleset)))
    )
    done = []
    for ruleset in rulesets:
        done.append(rebuild_ruleset(session, ruleset))
        session.commit()
    return done


def rebuild_ruleset(session: Session, ruleset: str) -> RulesetRebuild:
    """Forget the ruleset's ratings and rate its finished games again, oldest
    ending first; the caller commits."""
    _lock_ratings(session)
    start = MODEL.rating()
    # Reset in place rather than delete: a game ending meanwhile waits for
    # the lock above and then finds its players' rows, at their rebuilt values.
    session.execute(
        update(Rating)
        .where(Rating.ruleset == ruleset)
        .values(mu=start.mu, sigma=start.sigma, games=0)
        .execution_options(synchronize_session=False)
    )
    session.execute(delete(RatingChange).where(RatingChange.ruleset == ruleset))
    session.expire_all()
    game_ids = session.scalars(
        select(Game.id)
        .where(Game.ruleset == ruleset, Game.status == GameStatus.FINISHED)
        .order_by(Game.finished_at, Game.id)
    ).all()
    rated = 0
    for game_id in game_ids:
        game = session.get_one(Game, game_id)
        result = game_result(game)
        if result is not None and rate_game(session, game, result):
            rated += 1
    session.execute(delete(Rating).where(Rating.ruleset == ruleset, Rating.games == 0))
    players = session.scalars(select(Rating.id).where(Rating.ruleset == ruleset)).all()
    return RulesetRebuild(ruleset, rated, len(players))


def _lock_ratings(session: Session) -> None:
    """Hold off the pipeline's rating of games that end during the rebuild
    until it commits. PostgreSQL: a table lock that lets readers through;
    SQLite: the rebuild's first write takes the database's write lock."""
    if session.get_bind().dialect.name != "sqlite":
        session.execute(text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
