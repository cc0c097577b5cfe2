"""The player profile page: name, local time, ratings with a plot, games
(finished ones a page at a time), and nothing private."""

from __future__ import annotations

import re

from pbem import profiles
from tests.server.pipeline_helpers import played_out, rivals


def test_the_profile_page_shows_ratings_with_a_plot_and_games(session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    done, going_on = rivals(session, ann, bob)
    page = signed_in_as(ann).get(f"/players/{bob.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<h1>Bob</h1>" in html and 'id="local-time"' in html and "(UTC)" in html
    assert "Toy Pick" in html and re.search(r'<td class="rating">-?\d+\.\d</td>', html)
    assert '<svg class="rating-plot"' in html and "<polyline" in html
    assert f"/games/{going_on.public_id}" in html and f"/games/{done.public_id}" in html
    assert "2nd of 2" in html and "rating -" in html
    assert bob.email not in html and ann.email not in html


def test_a_profile_without_rated_games_says_so(signed_in_as, make_user):
    cem = make_user("Cem")
    html = signed_in_as(cem).get(f"/players/{cem.id}").get_data(as_text=True)
    assert "No rated games yet" in html and "<svg" not in html


def test_unknown_players_are_404_and_strangers_are_asked_to_sign_in(app, signed_in_as, make_user):
    ann = make_user("Ann")
    assert signed_in_as(ann).get("/players/999999").status_code == 404
    assert signed_in_as(ann).get("/players/99999999999").status_code == 404
    answer = app.test_client().get(f"/players/{ann.id}")
    assert answer.status_code == 302 and "/sign-in" in answer.headers["Location"]


def test_finished_games_come_a_page_at_a_time(session, make_user, signed_in_as, monkeypatch):
    ann, bob = make_user("Ann"), make_user("Bob")
    first, _ = rivals(session, ann, bob)
    second = played_out(session, ann, bob)
    monkeypatch.setattr(profiles, "PROFILE_PAGE_SIZE", 1)
    browser = signed_in_as(ann)
    newest = browser.get(f"/players/{ann.id}").get_data(as_text=True)
    assert f"/games/{second.public_id}" in newest and f"/games/{first.public_id}" not in newest
    assert "page 1 of 2" in newest
    older = browser.get(f"/players/{ann.id}?finished=2").get_data(as_text=True)
    assert f"/games/{first.public_id}" in older and f"/games/{second.public_id}" not in older


def test_seat_names_on_the_game_page_lead_to_the_profiles(session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    _, going_on = rivals(session, ann, bob)
    html = signed_in_as(ann).get(f"/games/{going_on.public_id}").get_data(as_text=True)
    assert f'href="/players/{bob.id}"' in html and f'href="/players/{ann.id}"' in html


def test_my_games_leads_to_my_own_profile(make_user, signed_in_as):
    ann = make_user("Ann")
    html = signed_in_as(ann).get("/").get_data(as_text=True)
    assert f'href="/players/{ann.id}"' in html
