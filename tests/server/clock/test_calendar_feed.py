"""The iCalendar feed of a player's deadlines at a secret address: one event
per decision they owe with a deadline, read back by a calendar parser; a
wrong or replaced address is not found."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit

import time_machine
from icalendar import Calendar

from pbem.models import User
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl

START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def feed_of(client, user: User) -> Calendar:
    answer = client.get(f"/calendar/{user.calendar_token}.ics")
    assert answer.status_code == 200 and answer.mimetype == "text/calendar"
    return Calendar.from_ical(answer.data)


def test_the_feed_holds_one_event_per_deadline_owed(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    with time_machine.travel(START, tick=False):
        clocked = create_game(
            session,
            ann,
            "toy-pick",
            [SeatSpec(user=ann), SeatSpec(user=bob)],
            time_control=TimeControl(days_per_move=3),
        )
        create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob)])
        session.commit()
    seat = clocked.seats[0]
    client = app.test_client()
    calendar = feed_of(client, ann)
    (event,) = calendar.walk("VEVENT")  # the game without a clock has no deadline
    assert event.decoded("dtstart") == seat.timeout_at == datetime(2026, 12, 4, 10, tzinfo=UTC)
    assert clocked.title and clocked.public_id not in clocked.title
    assert str(event["summary"]) == f"Your move: {clocked.title}"  # its title, not its id
    assert str(event["url"]).endswith(f"/games/{clocked.public_id}")
    assert "a bot plays that move" in str(event["description"])
    again = feed_of(client, ann).walk("VEVENT")[0]
    assert str(again["uid"]) == str(event["uid"])  # the same decision, the same event
    assert str(event["uid"]) != str(feed_of(client, bob).walk("VEVENT")[0]["uid"])


def test_a_wrong_token_is_not_found(app, make_user):
    make_user("Ann")
    client = app.test_client()
    assert client.get("/calendar/not-the-secret.ics").status_code == 404
    assert client.get("/calendar/.ics").status_code == 404


def test_the_settings_page_links_the_feed_and_replaces_its_secret(
    app, signed_in_as, make_user, session
):
    ann = make_user("Ann")
    old = ann.calendar_token
    browser = signed_in_as(ann)
    page = browser.get("/settings").get_data(as_text=True)
    assert f"/calendar/{old}.ics" in page and "New secret address" in page
    moved = browser.post("/settings/calendar")
    assert moved.status_code == 302
    assert "the old one no longer works" in browser.get(moved.location).get_data(as_text=True)
    session.expire_all()
    new = session.get(User, ann.id).calendar_token
    assert new != old
    client = app.test_client()
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    assert client.get(f"/calendar/{new}.ics").status_code == 200


def test_the_api_replaces_the_calendar_secret(app, api, token_for, make_user):
    ann = make_user("Ann")
    token = token_for(ann)
    old = api.call("getSettings", token).get_json()["calendar_url"]
    renewed = api.call("newCalendarAddress", token)
    assert renewed.status_code == 200
    new = renewed.get_json()["calendar_url"]
    assert new != old
    client = app.test_client()
    assert client.get(urlsplit(old).path).status_code == 404
    assert client.get(urlsplit(new).path).status_code == 200
