"""A real headless Chromium: a newcomer joins an open league through the link
its organiser shares, and sees the season's page once it starts."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import select

from pbem.db import get_db
from pbem.leagues.leagues import create_league, find_league, join_league
from pbem.leagues.seasons import start_season
from pbem.models import User
from pbem.services import accounts
from tests import toy_game  # noqa: F401  (registers the toy ruleset)
from tests.server.live_browser import sign_in

pytestmark = pytest.mark.parametrize("app", ["sqlite"], indirect=True)


def test_a_newcomer_joins_an_open_league_by_its_link_and_sees_the_season(live, chromium):
    app, base = live
    with app.app_context(), get_db().session() as session:
        owner = accounts.create_user(session, f"org-{uuid.uuid4().hex[:6]}@example.org", "Org")
        ann = accounts.create_user(session, f"ann-{uuid.uuid4().hex[:6]}@example.org", "Ann")
        league = create_league(session, owner, "Browser club", "toy-pick", 2, open_to_all=True)
        join_league(session, league.public_id, ann)
        session.commit()
        league_id = league.public_id
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    page = context.new_page()
    email = f"nina-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, "Nina")
    page.goto(f"{base}/leagues")
    page.get_by_role("link", name="Browser club").click()
    link = page.locator("code.share-link").inner_text()
    assert link.endswith(f"/leagues/{league_id}")
    page.goto(link)
    page.get_by_role("button", name="Join the league").click()
    page.get_by_text("You are an entrant").wait_for()
    with app.app_context(), get_db().session() as session:
        season = start_season(session, find_league(session, league_id))
        session.commit()
        nina = session.scalar(select(User).where(User.email == email))
        game_id = next(g.public_id for g in season.games if nina.id in {s.user_id for s in g.seats})
    page.reload()
    page.get_by_role("link", name="Season 1").click()
    page.get_by_role("heading", name="Standings").wait_for()
    assert "Each entrant plays 1 game" in page.locator(".balance").inner_text()
    row = page.locator("table.standings tr", has_text="Nina")
    assert row.get_by_role("link", name="Nina").count() == 1
    row.locator(f"a[href$='/games/{game_id}']").click()
    page.get_by_role("heading", name="Browser club – Season 1 – Round 1 – Game 1").wait_for()
    context.close()
