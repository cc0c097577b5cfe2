"""The administrators' page in the administrator's language: a refused turn
says why as the game page would, and each empty list says "none" agreeing
with what it lists (French "Aucun." for mail and turns, "Aucune." for
notifications; it said "Aucune." for all)."""

from __future__ import annotations

import html
import re

from flask import render_template

from pbem.services.pipeline import process_submission
from pbem.services.server_watch import Watch
from tests.server.pipeline_helpers import lost_submission, start_game


def section(page: str, section_id: str) -> str:
    return page.split(f'id="{section_id}"', 1)[1].split("</section>", 1)[0]


def test_a_refused_turn_says_why_in_the_administrators_language(
    app, session, make_user, signed_in_as
):
    ann, bob, admin = make_user("Ann"), make_user("Bob"), make_user("Ada")
    admin.is_admin, admin.language = True, "fr"
    game = start_game(app, session, "taluva", [ann, bob])
    refused = lost_submission(session, game.seats[0], "hut 2,-1")
    session.commit()
    process_submission(session, refused.id)
    page = signed_in_as(admin).get("/admin").get_data(as_text=True)
    line = next(
        html.unescape(item)
        for item in re.findall(r"<li>(.*?)</li>", section(page, "refusals"), re.S)
        if f"#{refused.id} " in item
    )
    assert "posez d'abord votre tuile, puis construisez [tour : tuile, puis construction]" in line


def test_every_empty_list_says_none_in_the_gender_of_what_it_lists(app):
    nothing = Watch([], [], [], [], [], [])
    expected = {
        "fr": {
            "failed-mail": "Aucun.",
            "held-mail": "Aucun.",
            "given-up-push": "Aucune.",
            "stuck-submissions": "Aucun.",
            "refusals": "Aucun.",
        },
        "cs": {
            "failed-mail": "Žádné.",
            "held-mail": "Žádné.",
            "given-up-push": "Žádná.",
            "stuck-submissions": "Žádné.",
            "refusals": "Žádná.",
        },
    }
    for language, sections in expected.items():
        with app.test_request_context("/admin", headers={"Accept-Language": language}):
            page = render_template("admin.html", watch=nothing)
        for section_id, none in sections.items():
            assert f'<p class="muted">{none}</p>' in section(page, section_id), section_id
