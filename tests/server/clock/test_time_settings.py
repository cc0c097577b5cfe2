"""Players' time settings (zone, quiet hours, reminders, the daily digest)
through the API and the settings page: saved, refused clearly when wrong,
and moving the player's deadlines when the zone or quiet hours change."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from pbem.models import Seat, User
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl

NEW_USERS_QUIET = "22:00-08:00"
# A Tuesday, 10:00 UTC: a deadline a day later falls at 02:00 in Los Angeles.
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def fresh(session, user: User) -> User:
    session.expire_all()
    return session.get(User, user.id)


def test_new_users_have_quiet_hours_at_night_reminders_a_day_ahead_and_mail_per_turn(
    api, token_for, session
):
    ann = accounts.create_user(session, f"ann-{uuid.uuid4().hex[:8]}@example.org", "Ann")
    session.commit()
    settings = api.call("getSettings", token_for(ann)).get_json()
    assert (settings["quiet_hours"], settings["reminder_hours"], settings["digest_hour"]) == (
        NEW_USERS_QUIET,
        24,
        None,
    )


def test_time_settings_are_read_changed_and_turned_off_through_the_api(
    api,
    token_for,
    make_user,
    session,
):
    ann = make_user("Ann")
    token = token_for(ann)
    change = {"quiet_hours": "23:30-7:00", "reminder_hours": 6, "digest_hour": 8}
    changed = api.call("updateSettings", token, change).get_json()
    assert (changed["quiet_hours"], changed["reminder_hours"], changed["digest_hour"]) == (
        "23:30-07:00",
        6,
        8,
    )
    user = fresh(session, ann)
    assert (user.quiet_start, user.quiet_end, user.reminder_hours, user.digest_hour) == (
        "23:30",
        "07:00",
        6,
        8,
    )
    off = {"quiet_hours": None, "reminder_hours": None, "digest_hour": None}
    assert api.call("updateSettings", token, off).status_code == 200
    user = fresh(session, ann)
    assert (user.quiet_hours, user.reminder_hours, user.digest_hour) == (None, None, None)
    assert api.call("updateSettings", token, {"name": "Anna"}).get_json()["quiet_hours"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"quiet_hours": "22-08"}, "'22' is not a time of day like 22:00"),
        ({"quiet_hours": "evenings"}, "quiet hours look like 22:00-08:00"),
        ({"quiet_hours": "25:00-08:00"}, "'25:00' is not a time of day"),
        ({"quiet_hours": "08:00-08:00"}, "must end at another time than they start"),
        ({"reminder_hours": 0}, "a whole number from 1 to 168"),
        ({"reminder_hours": 169}, "a whole number from 1 to 168"),
        ({"reminder_hours": "soon"}, "Not a valid integer"),
        ({"digest_hour": 24}, "a whole number from 0 to 23"),
        ({"digest_hour": 7}, "a daily digest at 07:00 would fall in your quiet hours"),
        ({"quiet_hours": "18:00-10:00", "digest_hour": 9}, "09:00 would fall in your quiet"),
    ],
)
def test_bad_time_settings_get_422_with_a_clear_message_and_change_nothing(
    api,
    token_for,
    make_user,
    session,
    change,
    message,
):
    ann = make_user("Ann", quiet_hours=NEW_USERS_QUIET)
    refused = api.call("updateSettings", token_for(ann), {"name": "Anna", **change})
    assert refused.status_code == 422 and message in str(refused.get_json())
    user = fresh(session, ann)
    assert (user.name, user.quiet_hours, user.reminder_hours, user.digest_hour) == (
        "Ann",
        "22:00-08:00",
        24,
        None,
    )


def test_the_settings_page_saves_quiet_hours_reminders_and_the_digest(
    signed_in_as, make_user, session
):
    ann = make_user("Ann", quiet_hours=NEW_USERS_QUIET)
    browser = signed_in_as(ann)
    page = browser.get("/settings").get_data(as_text=True)
    assert 'name="quiet" value="on" checked' in page and 'value="22:00"' in page
    assert 'name="reminder_hours" min="1" max="168" value="24"' in page
    assert 'value="each" checked' in page
    form = {
        "name": "Ann",
        "time_zone": "Europe/Prague",
        "language": "en",
        "moved_mail": "each",
        "quiet": "on",
        "quiet_start": "23:00",
        "quiet_end": "06:30",
        "reminder_hours": "12",
        "turn_mail": "digest",
        "digest_hour": "7",
    }
    assert browser.post("/settings", form).status_code == 302
    user = fresh(session, ann)
    assert (user.time_zone, user.quiet_hours, user.reminder_hours, user.digest_hour) == (
        "Europe/Prague",
        "23:00-06:30",
        12,
        7,
    )
    shown = browser.get("/settings").get_data(as_text=True)
    assert 'value="digest" checked' in shown and '<option value="7" selected>07:00' in shown
    # An unticked box and an empty field turn them off; a mail for each turn again.
    off = {**form, "reminder_hours": "", "turn_mail": "each"}
    del off["quiet"]
    assert browser.post("/settings", off).status_code == 302
    user = fresh(session, ann)
    assert (user.quiet_hours, user.reminder_hours, user.digest_hour) == (None, None, None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"reminder_hours": "lots"}, "must be a whole number, not &#39;lots&#39;"),
        ({"reminder_hours": "500"}, "a reminder comes 1 to 168 hours before a deadline, not 500"),
        ({"quiet_start": "", "quiet_end": ""}, "is not a time of day like 22:00"),
        ({"turn_mail": "digest", "digest_hour": "23"}, "23:00 would fall in your quiet hours"),
    ],
)
def test_the_settings_page_refuses_bad_times_clearly_and_keeps_what_was_typed(
    signed_in_as, make_user, session, change, message
):
    ann = make_user("Ann", quiet_hours=NEW_USERS_QUIET)
    browser = signed_in_as(ann)
    browser.get("/settings")
    form = {
        "name": "Anna",
        "time_zone": "UTC",
        "language": "en",
        "moved_mail": "each",
        "quiet": "on",
        "quiet_start": "22:00",
        "quiet_end": "08:00",
        "reminder_hours": "24",
        "turn_mail": "each",
        "digest_hour": "8",
        **change,
    }
    refused = browser.post("/settings", form)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and message in page, page
    assert 'value="Anna"' in page
    user = fresh(session, ann)
    assert (user.name, user.quiet_hours, user.reminder_hours, user.digest_hour) == (
        "Ann",
        "22:00-08:00",
        24,
        None,
    )


def test_a_new_zone_or_new_quiet_hours_move_the_players_deadlines(
    api,
    token_for,
    make_user,
    session,
):
    ann, bob = make_user("Ann", quiet_hours=NEW_USERS_QUIET), make_user("Bob")
    token = token_for(ann)
    with time_machine.travel(START, tick=False):
        game = create_game(
            session,
            ann,
            "toy-pick",
            [SeatSpec(user=ann), SeatSpec(user=bob)],
            time_control=TimeControl(days_per_move=1),
        )
        session.commit()
        seat_id = game.seats[0].id
        day_later = START + timedelta(days=1)
        assert game.seats[0].deadline == day_later  # 10:00 in UTC: not in quiet hours

        def deadline() -> datetime:
            session.expire_all()
            return session.get(Seat, seat_id).deadline

        api.call("updateSettings", token, {"time_zone": "America/Los_Angeles"})
        # 02:00 in Los Angeles: moved to the end of the quiet hours, 08:00 there.
        assert deadline() == datetime(2026, 12, 2, 16, 0, tzinfo=UTC)
        api.call("updateSettings", token, {"quiet_hours": "01:00-06:00"})
        assert deadline() == datetime(2026, 12, 2, 14, 0, tzinfo=UTC)
        api.call("updateSettings", token, {"quiet_hours": None})
        assert deadline() == day_later
