"""Every stored time comes back timezone-aware in UTC, on SQLite (which keeps
no zone) as on PostgreSQL (which answers in the session's zone)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import text

from pbem.models import Game, Seat
from pbem.services import accounts
from tests.server.openapi_client import OpenApiClient
from tests.server.pipeline_helpers import start_game

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def test_times_read_back_from_the_database_are_utc(app, session, make_user):
    ann = make_user("Ann")
    game = start_game(app, session, "taluva", [ann, "bot"])
    seat = game.seats[1]
    tokyo = timezone(timedelta(hours=9))
    seat.resigned_at = datetime(2026, 3, 1, 18, 30, tzinfo=tokyo)
    session.commit()
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET TIME ZONE 'Asia/Tokyo'"))
    session.expire_all()
    created = session.get(Game, game.id).created_at
    assert created.tzinfo is UTC and abs(datetime.now(UTC) - created) < timedelta(minutes=5)
    resigned = session.get(Seat, seat.id).resigned_at
    assert (resigned, resigned.tzinfo) == (datetime(2026, 3, 1, 9, 30, tzinfo=UTC), UTC)


def test_api_times_carry_their_utc_offset(app, session, make_user):
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    api = OpenApiClient(app.test_client())
    created = api.call("createGame", token, {"ruleset": "toy-pick", "seats": ["me", "bot:random"]})
    game = api.call("getGame", token, game_id=created.get_json()["id"]).get_json()
    stamp = datetime.fromisoformat(game["created_at"])
    assert stamp.utcoffset() == timedelta(0), game["created_at"]
