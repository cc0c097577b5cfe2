"""Chromium loads the pages under their Content-Security-Policy and reports
no violation: the scripts, styles, board pictures and fetches are all the
site's own, the seat dots' colours included. A turn still builds by clicks
under the policy (test_click_to_play.py plays whole turns)."""

from __future__ import annotations

import pytest

from pbem.db import get_db
from pbem.models import User
from tests.server.live_browser import answered, pick_on_board, player
from tests.server.pipeline_helpers import java_ann_first, start_game

pytestmark = pytest.mark.parametrize("app", ["sqlite"], indirect=True)

# Every violation the page reports, kept where the test can read it.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} line ${e.lineNumber}`));
"""


def test_the_pages_break_none_of_their_policy(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Csp")
    page.context.add_init_script(RECORD_VIOLATIONS)
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    with app.app_context(), get_db().session() as session:
        me = session.get(User, user_id)
        java = java_ann_first(app, session, me).public_id
        taluva = start_game(app, session, "taluva", [me, "bot"]).public_id
        samurai = start_game(app, session, "samurai", [me, "bot"]).public_id
    seen = {}
    for path in [
        "/",
        "/games/new",
        "/games/new/taluva",
        f"/games/{java}",
        f"/games/{taluva}",
        f"/games/{samurai}",
        f"/games/{taluva}/watch",
        f"/players/{user_id}",
        "/leagues",
        "/settings",
        "/vacation",
        "/help",
    ]:
        assert page.goto(f"{base}{path}").ok, path
        page.wait_for_load_state("networkidle")
        seen[path] = page.evaluate("window.cspViolations")
    page.goto(f"{base}/games/{java}")
    pick_on_board(page, lambda move, cost: cost == 1)  # the turn builder's script runs
    answered(page)
    assert page.locator("#moves").input_value()
    seen["a click on the board"] = page.evaluate("window.cspViolations")
    assert {path: found for path, found in seen.items() if found} == {}
    assert refused == []
    page.context.close()
