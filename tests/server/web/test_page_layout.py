"""Where things land on a page, as Chromium lays it out: a Java move's cost
stands apart from the move (a button read "village=G41 AP", as if the move
named space G41), and the footer's privacy link sits in the page's column."""

from __future__ import annotations

import re

import pytest

from pbem.db import get_db
from pbem.models import User
from tests.server.live_browser import MOVE_TIMEOUT_MS, OPEN_ITS_GROUPS, player
from tests.server.pipeline_helpers import java_ann_first

pytestmark = pytest.mark.parametrize("app", ["sqlite"], indirect=True)

# Pixels between the last letter of a button's move and its cost: the move's
# own characters (a range over them), then the cost's box.
GAP_AFTER_MOVE = """b => {
  const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  while (node && !node.textContent.includes(b.dataset.move)) node = walker.nextNode();
  const start = node.textContent.indexOf(b.dataset.move);
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, start + b.dataset.move.length);
  const cost = b.querySelector('.cost').getBoundingClientRect();
  return cost.left - range.getBoundingClientRect().right;
}"""


def test_a_moves_cost_stands_apart_from_the_move(live, chromium):
    app, base = live
    page, user_id = player(app, chromium, base, "Vi")
    with app.app_context(), get_db().session() as session:
        game = java_ann_first(app, session, session.get(User, user_id))
        public_id = game.public_id
    page.goto(f"{base}/games/{public_id}")
    costed = page.locator("#legal-moves button.move:has(.cost)")
    costed.first.wait_for(state="attached", timeout=MOVE_TIMEOUT_MS)
    shown = costed.first
    shown.evaluate(OPEN_ITS_GROUPS)
    assert re.fullmatch(r"\(\d AP\)", shown.locator(".cost").inner_text())
    assert shown.evaluate(GAP_AFTER_MOVE) >= 4
    page.context.close()


def test_the_privacy_link_sits_in_the_pages_column(live, chromium):
    _app, base = live
    context = chromium.new_context(viewport={"width": 1600, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/")
    heading = page.locator("main h1").bounding_box()
    link = page.get_by_role("link", name="Privacy").bounding_box()
    assert heading is not None and link is not None
    assert abs(link["x"] - heading["x"]) < 1
    context.close()
