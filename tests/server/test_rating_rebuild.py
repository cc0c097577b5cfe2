"""`pbem ratings rebuild`: every rating recomputed from the finished games in
the order they ended, the same as the pipeline rated them live, twice over
the same, with results stored for games that had none."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import delete, func, select, update

from pbem.cli import main
from pbem.models import Game, Rating, RatingChange
from pbem.services.ratings import MODEL
from tests.server.pipeline_helpers import played_out

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def ratings_of(session, users) -> dict[tuple[int, str], tuple[float, float, int]]:
    session.expire_all()
    rows = session.scalars(select(Rating).where(Rating.user_id.in_([u.id for u in users])))
    return {(r.user_id, r.ruleset): (r.mu, r.sigma, r.games) for r in rows}


def changes_in(session, games) -> list[tuple[int, int, float, bool, bool]]:
    rows = session.scalars(
        select(RatingChange)
        .where(RatingChange.game_id.in_([g.id for g in games]))
        .order_by(RatingChange.game_id, RatingChange.user_id)
    )
    return [(c.game_id, c.user_id, c.rating, c.against_bots, c.forfeit) for c in rows]


def rebuild(app) -> str:
    answer = app.test_cli_runner().invoke(main, ["ratings", "rebuild"])
    assert answer.exit_code == 0, answer.output
    return answer.output


def test_a_rebuild_gives_the_live_ratings_back_and_twice_the_same(app, session, make_user):
    """The database is shared with other tests: the rebuild rates their games
    too, and only this test's players and games are compared."""
    ann, bob, cem = users = [make_user("Ann"), make_user("Bob"), make_user("Cem")]
    # The first seat always wins: Ann > Bob, Bob > Cem, Cem > Ann, Ann > Cem.
    games = [
        played_out(session, *pair) for pair in ((ann, bob), (bob, cem), (cem, ann), (ann, cem))
    ]
    live, live_changes = ratings_of(session, users), changes_in(session, games)
    assert len(live) == 3 and len(live_changes) == 8
    # A stale rating in a game Ann never finished: the rebuild removes it.
    start = MODEL.rating()
    session.add(Rating(user_id=ann.id, ruleset="java", mu=start.mu + 5, sigma=1.0, games=9))
    # As before ratings and stored results existed.
    mine = [game.id for game in games]
    session.execute(delete(RatingChange).where(RatingChange.game_id.in_(mine)))
    session.execute(delete(Rating).where(Rating.user_id.in_([u.id for u in users])))
    session.execute(update(Game).where(Game.id.in_(mine)).values(result=None))
    session.commit()

    assert re.search(r"^toy-pick: \d+ games rated, \d+ players$", rebuild(app), re.MULTILINE)
    rebuilt = ratings_of(session, users)
    assert rebuilt.keys() == live.keys()
    for key, (mu, sigma, played) in live.items():
        assert rebuilt[key] == (pytest.approx(mu), pytest.approx(sigma), played)
    assert changes_in(session, games) == [
        (game, user, pytest.approx(rating), bots, forfeit)
        for game, user, rating, bots, forfeit in live_changes
    ]
    stored = session.scalars(select(Game).where(Game.id.in_(mine)).order_by(Game.id))
    assert [game.result["ranking"] for game in stored] == [[[0], [1]]] * len(games)
    history = session.scalars(
        select(RatingChange).where(RatingChange.user_id == ann.id).order_by(RatingChange.rated_at)
    )
    assert [change.game_id for change in history] == [games[0].id, games[2].id, games[3].id]

    rebuild(app)
    assert ratings_of(session, users) == rebuilt
    rows = select(func.count()).where(RatingChange.game_id.in_(mine))
    assert session.scalar(rows) == 8
