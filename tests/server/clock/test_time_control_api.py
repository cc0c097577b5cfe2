"""A game's time control through the API: chosen when the game is made, shown
with every game, and each seat's deadline, bank and decision in the seat."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from pbem.models import Game
from pbem.services import accounts
from tests.server.openapi_client import OpenApiClient


@pytest.fixture
def api(app) -> OpenApiClient:
    return OpenApiClient(app.test_client())


@pytest.fixture
def ann_token(session, make_user) -> str:
    """Ann has no quiet hours, so her deadlines are exactly so many days away."""
    ann = make_user("Ann")
    ann.quiet_start = ann.quiet_end = None
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    return token


def when(text: str) -> datetime:
    assert text.endswith("+00:00"), text  # ISO 8601 with its offset, in UTC
    return datetime.fromisoformat(text)


def test_a_game_made_with_a_clock_shows_it_and_each_seats_deadline_and_bank(api, ann_token):
    clock = {"days_per_move": 2, "bank_days": 5, "weekends_off": False, "on_timeout": "forfeit"}
    body = {"ruleset": "taluva", "seats": ["me", "bot:random"], "time_control": clock}
    created = api.call("createGame", ann_token, body)
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert body["time_control"] == clock
    ann, bot = body["seats"]
    asked = when(ann["waiting_since"])
    assert when(ann["own_deadline"]) == asked + timedelta(days=2)
    assert when(ann["deadline"]) == asked + timedelta(days=7)  # two days, then a bank of five
    assert ann["bank_days_left"] == 5
    assert (bot["deadline"], bot["own_deadline"], bot["bank_days_left"]) == (None, None, None)
    assert bot["waiting_since"] is None  # it owes nothing now (and bots have no clock)

    again = api.call("getGame", ann_token, game_id=body["id"]).get_json()
    assert again["time_control"] == clock and again["seats"] == body["seats"]
    listed = api.call("listGames", ann_token).get_json()
    assert [g["time_control"] for g in listed if g["id"] == body["id"]] == [clock]


def test_left_out_parts_of_a_time_control_take_their_defaults(api, ann_token):
    created = api.call(
        "createGame",
        ann_token,
        {"ruleset": "taluva", "seats": ["me", "open"], "time_control": {"days_per_move": 1}},
    )
    assert created.get_json()["time_control"] == {
        "days_per_move": 1,
        "bank_days": 0,
        "weekends_off": False,
        "on_timeout": "bot",
    }
    open_seat = created.get_json()["seats"][1]
    assert open_seat["deadline"] is None and open_seat["bank_days_left"] == 0


@pytest.mark.parametrize("left_out", [True, False], ids=["left-out", "null"])
def test_a_game_without_a_time_control_has_no_clock(api, ann_token, left_out):
    body = {"ruleset": "taluva", "seats": ["me", "bot:random"]}
    if not left_out:
        body["time_control"] = None
    game = api.call("createGame", ann_token, body).get_json()
    assert game["time_control"] is None
    ann = game["seats"][0]
    assert (ann["deadline"], ann["own_deadline"], ann["bank_days_left"]) == (None, None, None)
    assert ann["waiting_since"] is not None  # waiting since when is worth knowing all the same


BAD_CLOCKS = [
    ({"days_per_move": 0}, "time_control.days_per_move: must be a whole number from 1 to 30"),
    ({"days_per_move": 31}, "time_control.days_per_move: must be a whole number from 1 to 30"),
    ({"days_per_move": 2.5}, "time_control.days_per_move: Not a valid integer."),
    ({"days_per_move": "3"}, "time_control.days_per_move: Not a valid integer."),
    ({"bank_days": 3}, "time_control.days_per_move: Missing data for required field."),
    (
        {"days_per_move": 3, "bank_days": 61},
        "time_control.bank_days: must be a whole number from 0 to 60",
    ),
    (
        {"days_per_move": 3, "on_timeout": "shrug"},
        "time_control.on_timeout: Must be one of: bot, forfeit, wait.",
    ),
    ({"days_per_move": 3, "hours": 2}, "time_control.hours: Unknown field."),
    ("3 days", "time_control._schema: Invalid input type."),
]


def test_bad_time_controls_are_refused_with_the_reason_and_make_no_game(api, ann_token, session):
    games_before = session.scalar(select(func.count()).select_from(Game))
    for clock, message in BAD_CLOCKS:
        body = {"ruleset": "taluva", "seats": ["me", "bot:random"], "time_control": clock}
        refused = api.call("createGame", ann_token, body)
        assert (refused.status_code, refused.get_json()["message"]) == (422, message), clock
    assert session.scalar(select(func.count()).select_from(Game)) == games_before
