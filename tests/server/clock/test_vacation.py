"""Vacations: the yearly allowance, the clocks they stop, and starting and
ending one through the API and the vacation page."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.models import ClockStop, OnTimeout, Seat, User
from pbem.services import accounts, vacation
from pbem.services.errors import Conflict, Invalid
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl
from tests.server.openapi_client import OpenApiClient

# In the future: the sweeps of other tests (at the real time) leave these clocks alone.
MONDAY = datetime(2037, 11, 16, 10, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def no_quiet_hours(*users: User) -> None:
    for user in users:
        user.quiet_start = user.quiet_end = None


def clocked_game(session, ann: User, bob: User, **clock):
    """Ann (seat 0) owes the first move from MONDAY on."""
    no_quiet_hours(ann, bob)
    with time_machine.travel(MONDAY, tick=False):
        game = create_game(
            session,
            ann,
            "taluva",
            [SeatSpec(user=ann), SeatSpec(user=bob)],
            time_control=TimeControl(**clock),
        )
        session.commit()
    return game


def fresh(session, seat: Seat) -> Seat:
    session.expire_all()
    return session.get(Seat, seat.id)


def test_a_vacation_stops_the_clock_and_coming_back_starts_it_again(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = clocked_game(session, ann, bob, days_per_move=2, bank_days=1, on_timeout=OnTimeout.WAIT)
    seat = game.seats[0]
    assert (seat.deadline, seat.timeout_at) == (MONDAY + 2 * DAY, MONDAY + 3 * DAY)
    sweep(session, MONDAY + 2 * DAY + timedelta(hours=1))  # a day before: her reminder
    assert fresh(session, seat).reminded_at is not None

    # Two hours into her bank, five days of vacation: the bank stops too.
    vacation.start(session, ann, 5, 30, MONDAY + 2 * DAY + timedelta(hours=2))
    session.commit()
    seat = fresh(session, seat)
    assert (seat.deadline, seat.timeout_at) == (MONDAY + 2 * DAY, MONDAY + 8 * DAY)
    assert seat.reminded_at is None  # the new timeout gets a reminder of its own
    for moment in (MONDAY + 3 * DAY + timedelta(minutes=1), MONDAY + 6 * DAY):
        sweep(session, moment)  # on vacation past the old timeout
        assert fresh(session, seat).timed_out_at is None

    back = MONDAY + 3 * DAY + timedelta(hours=2)  # one day of vacation instead of five
    vacation.end(session, ann, back)
    session.commit()
    seat = fresh(session, seat)
    assert (seat.deadline, seat.timeout_at) == (MONDAY + 2 * DAY, MONDAY + 4 * DAY)
    stop = session.scalar(select(ClockStop).where(ClockStop.user_id == ann.id))
    assert (stop.started_at, stop.ended_at) == (MONDAY + 2 * DAY + timedelta(hours=2), back)
    assert vacation.status(session, ann, 30, back).used == 1
    sweep(session, MONDAY + 4 * DAY - timedelta(minutes=1))
    assert fresh(session, seat).timed_out_at is None and fresh(session, seat).reminded_at
    late = MONDAY + 4 * DAY + timedelta(minutes=1)
    sweep(session, late)
    assert fresh(session, seat).timed_out_at == late


def test_the_allowance_is_refused_once_used_and_one_vacation_runs_at_a_time(session, make_user):
    ann = make_user("Ann")
    with pytest.raises(Invalid, match="a vacation lasts 1 to 3 days"):
        vacation.start(session, ann, 4, 3, MONDAY)
    with pytest.raises(Invalid, match="1 to 3 days"):
        vacation.start(session, ann, 0, 3, MONDAY)
    vacation.start(session, ann, 2, 3, MONDAY)
    session.commit()
    with pytest.raises(Conflict, match="you are on vacation until Wed 18 Nov, 10:00"):
        vacation.start(session, ann, 1, 3, MONDAY + DAY)
    session.rollback()
    later = MONDAY + 2 * DAY + timedelta(hours=1)  # the vacation ended by itself
    assert vacation.current(session, ann.id, later) is None
    with pytest.raises(Conflict, match="not on vacation"):
        vacation.end(session, ann, later)
    session.rollback()
    vacation.start(session, ann, 1, 3, later)
    session.commit()
    state = vacation.status(session, ann, 3, later + 2 * DAY)
    assert (state.year, state.used, state.left, state.on_vacation) == (2037, 3, 0, False)
    with pytest.raises(Invalid, match=r"no vacation days left this year \(all 3 are used\)"):
        vacation.start(session, ann, 1, 3, later + 2 * DAY)
    session.rollback()
    with pytest.raises(Invalid, match="not offered"):
        vacation.start(session, make_user("Bob"), 1, 0, MONDAY)


def test_the_year_is_the_players_own(session, make_user):
    """26 hours of vacation from 30 December 10:00 UTC: for Ann in Auckland the
    new year has begun by then, for Bob in UTC it has not."""
    ann, bob = make_user("Ann"), make_user("Bob")
    accounts.update_settings(session, ann, time_zone="Pacific/Auckland")
    start, end = datetime(2026, 12, 30, 10, tzinfo=UTC), datetime(2026, 12, 31, 12, tzinfo=UTC)
    for user in (ann, bob):
        vacation.start(session, user, 30, 30, start)
        vacation.end(session, user, end)
    session.commit()
    ann_now = vacation.status(session, ann, 30, end)
    bob_now = vacation.status(session, bob, 30, end)
    assert (ann_now.year, ann_now.used, ann_now.left) == (2027, 0, 30)
    assert (bob_now.year, bob_now.used, bob_now.left) == (2026, 2, 28)
    assert vacation.status(session, ann, 30, start).used == 2  # her 2026, seen then


@pytest.fixture
def api(app) -> OpenApiClient:
    return OpenApiClient(app.test_client())


def test_vacation_through_the_api(api, session, make_user):
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    shown = api.call("getVacation", token).get_json()
    assert shown | {"year": 0} == {
        "year": 0,
        "allowance": 30,
        "used": 0,
        "left": 30,
        "on_vacation": False,
        "started_at": None,
        "ends_at": None,
    }
    too_long = api.call("startVacation", token, {"days": 31})
    assert too_long.status_code == 422 and "1 to 30 days" in too_long.get_json()["message"]
    assert api.call("startVacation", token, {"days": "seven"}).status_code == 422
    assert api.call("endVacation", token).status_code == 409

    started = api.call("startVacation", token, {"days": 7})
    assert started.status_code == 201
    body = started.get_json()
    assert body["on_vacation"] and (body["used"], body["left"]) == (7, 23)
    begun, ends = (datetime.fromisoformat(body[k]) for k in ("started_at", "ends_at"))
    assert ends - begun == 7 * DAY
    again = api.call("startVacation", token, {"days": 1})
    assert again.status_code == 409 and "already" in again.get_json()["message"]

    ended = api.call("endVacation", token)
    assert ended.status_code == 200
    assert ended.get_json()["on_vacation"] is False and ended.get_json()["used"] == 1
    stops = session.scalars(select(ClockStop).where(ClockStop.user_id == ann.id)).all()
    assert len(stops) == 1 and stops[0].ended_at - stops[0].started_at < DAY


def test_racing_starts_make_one_vacation(app, session, make_user):
    if app.extensions["pbem.db"].is_sqlite:
        pytest.skip("the race needs a database that serves clients at once")
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "race")
    session.commit()

    def start(_client: int) -> int:
        headers = {"Authorization": f"Bearer {token}"}
        answer = app.test_client().post("/api/v1/vacation", json={"days": 3}, headers=headers)
        return answer.status_code

    with ThreadPoolExecutor(10) as pool:
        codes = list(pool.map(start, range(10)))
    assert sorted(codes) == [201] + [409] * 9
    assert len(session.scalars(select(ClockStop).where(ClockStop.user_id == ann.id)).all()) == 1


def test_vacation_page(signed_in_as, make_user, session):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    assert 'href="/vacation"' in browser.get("/settings").get_data(as_text=True)
    page = browser.get("/vacation").get_data(as_text=True)
    assert "<strong>30</strong> of 30 vacation days left" in page and 'id="vacation-form"' in page

    refused = browser.post("/vacation", {"days": "a week"})
    assert refused.status_code == 422
    assert "Nothing was changed: &#39;a week&#39; is not a number of days." in refused.get_data(
        as_text=True
    )
    too_long = browser.post("/vacation", {"days": "45"})
    assert too_long.status_code == 422 and "1 to 30 days" in too_long.get_data(as_text=True)
    assert session.scalar(select(ClockStop).where(ClockStop.user_id == ann.id)) is None

    started = browser.post("/vacation", {"days": "7"})
    assert started.status_code == 302
    page = browser.get(started.location).get_data(as_text=True)
    assert "Your vacation has started" in page and "<strong>23</strong> of 30" in page
    assert "You are on vacation until " in page and "(in 7 days)" in page
    again = browser.post("/vacation", {"days": "1"})
    assert again.status_code == 409 and "already" in again.get_data(as_text=True)

    back = browser.post("/vacation/end")
    assert back.status_code == 302
    page = browser.get(back.location).get_data(as_text=True)
    assert "Welcome back" in page and "<strong>29</strong> of 30" in page
    assert browser.post("/vacation/end").status_code == 409
