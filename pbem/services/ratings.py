"""Player ratings per game (ruleset), across every rated game of it.

Why openskill's Plackett-Luce model: our games have two to four players and end
in a ranking that may hold ties (equal scores share a place). Elo and Glicko
only know two-player wins and losses; a 4-player game would have to be cut into
six made-up duels. Plackett-Luce rates the whole ranking at once, as the
likelihood that the players finished in that order, and tied players share a
rank, so equal players who tie get equal updates. Each player has a mean skill
`mu` and an uncertainty `sigma`; profiles show the conservative value
mu - 3·sigma (openskill's `ordinal()`), which rises as a player proves
themselves over more games rather than jumping after one lucky win.

Which games count: every finished game, league or casual, with at least two
seats held by people; an abandoned game has no result and is not rated. Bots
are left out: only the people's order among themselves counts (a bot that
finished between two players changes nothing for them), and the rows say
`against_bots` so a profile can tell such games apart. A seat whose player
resigned or lost it on time ranks last, as the engine's result already says;
the rows say `forfeit`. League games are rated the same way: a league entrant
who withdrew is a forfeit too, whether it left a game under way (its player
resigned the seat) or its bot sat down for it from the start (a seat with no
player, marked resigned when the game was made; the bot itself is left out).
`pbem ratings rebuild` (pbem.services.rating_rebuild) recomputes everything
from the games in the order they finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, GameStatus, Rating, RatingChange, utcnow

MODEL = PlackettLuce()


@dataclass(frozen=True)
class RatingHistory:
    """A player's rating in one game with its changes, oldest first."""

    rating: Rating
    changes: list[RatingChange]

    @property
    def conservative(self) -> float:
        return conservative(self.rating.mu, self.rating.sigma)

    @property
    def plot_values(self) -> list[float]:
        """The conservative rating before the first game, then after each."""
        if not self.changes:
            return []
        first = self.changes[0]
        return [
            conservative(first.mu_before, first.sigma_before),
            *(change.rating for change in self.changes),
        ]


def conservative(mu: float, sigma: float) -> float:
    """What others see: a value the player's skill is very likely above."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rate_game(session: Session, game: Game, result: engine.Result) -> list[RatingChange]:
    """Rate a finished game once: the changes made, [] if it is not rated or was already."""
    if game.status != GameStatus.FINISHED or game.abandoned_at is not None:
        return []
    humans = [seat for seat in game.seats if seat.user_id is not None]
    if len(humans) < 2 or len({seat.user_id for seat in humans}) < len(humans):
        return []  # one person against bots, or one person in two seats: not a contest
    already = session.scalar(select(RatingChange.id).where(RatingChange.game_id == game.id))
    if already is not None:
        return []
    ranks = places(result)
    user_ids = [user_id for seat in humans if (user_id := seat.user_id) is not None]  # all of them
    locked = _locked_ratings(session, user_ids, game.ruleset)
    ratings = [locked[user_id] for user_id in user_ids]
    new = MODEL.rate(
        [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings],
        ranks=[ranks[seat.position] for seat in humans],
    )
    against_bots = any(seat.user_id is None for seat in game.seats)
    forfeit = any(seat.has_left for seat in game.seats)
    now = utcnow()
    changes = []
    for seat, rating, (after,) in zip(humans, ratings, new, strict=True):
        change = RatingChange(
            user_id=seat.user_id,
            game=game,
            ruleset=game.ruleset,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=after.mu,
            sigma_after=after.sigma,
            rating=after.ordinal(),
            against_bots=against_bots,
            forfeit=forfeit,
            rated_at=game.finished_at or now,  # a rebuild keeps the history in game order
        )
        rating.mu, rating.sigma, rating.games, rating.updated_at = (
            after.mu,
            after.sigma,
            rating.games + 1,
            now,
        )
        session.add(change)
        changes.append(change)
    session.flush()
    return changes


def places(result: engine.Result) -> dict[int, int]:
    """Each seat's place, 1 best, as in sport: tied seats share a place and the
    next one skips (1, 2, 2, 4); unranked seats share the last."""
    groups = [*result.ranking, result.unranked] if result.unranked else list(result.ranking)
    ranks, place = {}, 1
    for group in groups:
        ranks.update(dict.fromkeys(group, place))
        place += len(group)
    return ranks


def _locked_ratings(session: Session, user_ids: list[int], ruleset: str) -> dict[int, Rating]:
    """The players' ratings, made if new, locked until the transaction ends:
    two games of one player that end at once must not both start from the
    same rating. Locked in user order, so such games wait in turn and never deadlock."""
    known = set(
        session.scalars(
            select(Rating.user_id).where(Rating.user_id.in_(user_ids), Rating.ruleset == ruleset)
        )
    )
    for user_id in sorted(set(user_ids) - known):
        try:
            with session.begin_nested():
                start = MODEL.rating()
                session.add(
                    Rating(user_id=user_id, ruleset=ruleset, mu=start.mu, sigma=start.sigma)
                )
        except IntegrityError:
            pass  # a game of theirs that ended at the same moment made it first
    query = (
        select(Rating)
        .where(Rating.user_id.in_(user_ids), Rating.ruleset == ruleset)
        .order_by(Rating.user_id)
        .execution_options(populate_existing=True)
    )
    if session.get_bind().dialect.name != "sqlite":  # SQLite: the game lock already writes
        query = query.with_for_update()
    return {rating.user_id: rating for rating in session.scalars(query)}


def ratings_of(session: Session, user_id: int) -> list[RatingHistory]:
    """The player's ratings, by ruleset name, each with its history."""
    ratings = session.scalars(
        select(Rating).where(Rating.user_id == user_id).order_by(Rating.ruleset)
    )
    changes = session.scalars(
        select(RatingChange)
        .where(RatingChange.user_id == user_id)
        .order_by(RatingChange.rated_at, RatingChange.id)
    ).all()
    return [
        RatingHistory(rating, [change for change in changes if change.ruleset == rating.ruleset])
        for rating in ratings
    ]
