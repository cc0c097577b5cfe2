"""axe-core (tests/browser's pinned copy, injected by Playwright) finds no
serious or critical accessibility violation on a game page of each game: a
player's page with the legal moves (or Samurai's opening tiles to tick) and a
spectator's page."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.db import get_db
from pbem.models import User
from tests.server.live_browser import sign_in
from tests.server.pipeline_helpers import start_game

AXE = Path(__file__).resolve().parents[2] / "browser" / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = {"serious", "critical"}

pytestmark = [
    pytest.mark.parametrize("app", ["sqlite"], indirect=True),
    pytest.mark.skipif(
        not AXE.exists(), reason="npm ci --prefix tests/browser (deploy/test-services.sh)"
    ),
]


def severe_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document)")
    assert len(result["passes"]) > 10  # axe did look at the page
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in result["violations"]
        if v["impact"] in SEVERE
    ]


@pytest.mark.parametrize("ruleset", ["java", "taluva", "samurai"])
def test_a_game_page_has_no_serious_accessibility_violation(live, chromium, ruleset):
    app, base = live
    # axe is the tester's script, not the site's: its Content-Security-Policy
    # rightly refuses it (test_csp_in_chromium.py checks the pages under it).
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    email = f"axe-{ruleset}-{uuid.uuid4().hex[:6]}@example.org"
    sign_in(app, base, page, email, "Ada")
    with app.app_context(), get_db().session() as session:
        user = session.scalar(select(User).where(User.email == email))
        seats = ["bot", user] if ruleset == "java" else [user, "bot"]
        public_id = start_game(app, session, ruleset, seats).public_id
    page.goto(f"{base}/games/{public_id}")
    page.locator("#legal-moves, #pick-form").first.wait_for(state="attached", timeout=30_000)
    assert severe_violations(page) == []
    page.goto(f"{base}/games/{public_id}/watch")
    assert severe_violations(page) == []
    context.close()
