"""The weekly league digest's day and hour, chosen or switched off through the
API and the settings page (its timing: tests/server/leagues/test_league_digest.py)."""

from __future__ import annotations

from pbem.models import User


def test_the_api_chooses_the_digests_day_and_hour_or_switches_it_off(
    api, token_for, make_user, session
):
    ann = make_user("Ann")
    token = token_for(ann)
    changed = api.call("updateSettings", token, {"league_digest_day": 4, "league_digest_hour": 7})
    assert changed.status_code == 200
    assert (changed.get_json()["league_digest_day"], changed.get_json()["league_digest_hour"]) == (
        4,
        7,
    )
    off = api.call("updateSettings", token, {"league_digest_day": None}).get_json()
    assert (off["league_digest_day"], off["league_digest_hour"]) == (None, 7)
    refused = api.call("updateSettings", token, {"league_digest_day": 7})
    assert refused.status_code == 422
    session.expire_all()
    user = session.get(User, ann.id)
    assert (user.league_digest_day, user.league_digest_hour) == (None, 7)


def test_the_settings_page_chooses_the_digests_day_and_hour_or_switches_it_off(
    signed_in_as, make_user, session
):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    page = browser.get("/settings").get_data(as_text=True)
    assert '<option value="0" selected>Monday</option>' in page
    assert '<option value="18" selected>18:00</option>' in page
    form = {"name": "Ann", "time_zone": "UTC", "language": "en", "moved_mail": "each"}
    saved = browser.post("/settings", {**form, "league_digest_day": "5", "league_digest_hour": "9"})
    assert saved.status_code == 302
    session.expire_all()
    user = session.get(User, ann.id)
    assert (user.league_digest_day, user.league_digest_hour) == (5, 9)
    page = browser.get("/settings").get_data(as_text=True)
    assert '<option value="5" selected>Saturday</option>' in page
    off = browser.post("/settings", {**form, "league_digest_day": "", "league_digest_hour": "9"})
    assert off.status_code == 302
    session.expire_all()
    assert session.get(User, ann.id).league_digest_day is None
    refused = browser.post("/settings", {**form, "league_digest_day": "9"})
    assert refused.status_code == 422 and "0 (Monday) to 6 (Sunday)" in refused.get_data(
        as_text=True
    )
