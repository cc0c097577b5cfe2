"""The clock tests drive the API and the pages with the server tests' fixtures.

They share each database with every other server test, and a
sweep acts on every game in it: after each test its clocked games are paused,
so no later sweep (at whatever time a test travels to) acts on them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import update

from pbem.models import Game, GameStatus, utcnow


@pytest.fixture(autouse=True)
def stop_clocks_afterwards(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "app" not in request.fixturenames:
        return
    app = request.getfixturevalue("app")
    with app.extensions["pbem.db"].session() as session:
        session.execute(
            update(Game)
            .where(
                Game.status == GameStatus.ACTIVE,
                Game.days_per_move.is_not(None),
                Game.paused_at.is_(None),
            )
            .values(paused_at=utcnow())
        )
        session.commit()
