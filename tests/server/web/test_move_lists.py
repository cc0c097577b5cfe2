"""The game page's legal moves grouped by kind and space, Samurai's opening as
tiles to tick, the others' moves since your last turn, the history slider."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import select

from pbem.models import Game, Submission
from pbem.render.lastturn import moves_since
from pbem.render.panel import MOVES_SHOWN
from pbem.services.replay import engine_game
from pbem.web.move_groups import FULL_LIST, group_moves
from tests.server.conftest import drain
from tests.server.pipeline_helpers import java_ann_first, start_game
from tests.server.web.page_helpers import legal, plies

PAGE_LIMIT = 300 * 1024  # issue 13: any game page


def test_java_moves_come_by_kind_then_by_space_each_once(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    browser = signed_in_as(ann)
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    moves = legal(session, game, 1)
    assert len(moves) > FULL_LIST
    assert len(page.encode()) < PAGE_LIMIT
    kinds = group_moves(moves, [])
    summaries = re.findall(r'<details class="move-kind"[^>]*>\s*<summary>([^<]*)</summary>', page)
    assert summaries == [f"{kind.kind} ({kind.count})" for kind in kinds]
    links = re.findall(r'<a class="move-space" href="([^"]*)">(\w+) \((\d+)\)</a>', page)
    assert len(links) > 20
    shown = re.findall(r'class="move" data-move="([^"]*)"', page)
    for href, space, count in links:
        group = [m for m in moves if m.split()[1:2] == [space] and f"moves={m.split()[0]}+" in href]
        assert len(group) == int(count)
        shown += group
    assert sorted(shown) == sorted(moves)  # each move once, on the page or behind a link
    href, space, count = links[0]
    opened = browser.get(html.unescape(href)).get_data(as_text=True)
    buttons = re.findall(r'class="move" data-move="([^"]*)"', opened)
    assert len(buttons) == len(re.findall(r'class="move" data-move', page)) + int(count)
    assert f'<details class="move-space" open>\n      <summary>{space} ({count})' in opened


def test_samurais_opening_is_five_tiles_ticked(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = start_game(app, session, "samurai", [ann, "bot"])
    browser = signed_in_as(ann)
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert len(page.encode()) < PAGE_LIMIT
    assert 'class="move"' not in page and 'id="moves"' in page
    assert page.count('type="checkbox" name="pick"') == 20
    form = {"ply": "0", "choice": "choose"}
    four = browser.post(
        f"/games/{game.public_id}/submit",
        {**form, "pick": ["helmet4", "buddha4", "rice4", "ronin"]},
    )
    assert four.status_code == 422 and 'id="move-error"' in four.get_data(as_text=True)
    assert not session.scalar(select(Submission).where(Submission.seat_id == game.seats[0].id))
    five = ["ship1", "helmet4", "buddha4", "rice4", "ship1"]
    sent = browser.post(f"/games/{game.public_id}/submit", {**form, "pick": five})
    assert sent.status_code == 302
    drain(app)
    assert 'data-status="accepted"' in browser.get(sent.location).get_data(as_text=True)
    session.expire_all()
    first = session.get(Game, game.id).moves
    mine = [m.text for m in first if m.seat_id == game.seats[0].id]
    assert mine == ["choose helmet4 buddha4 rice4 ship1 ship1"]


def test_the_others_moves_since_your_last_turn_by_player(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = start_game(app, session, "taluva", [ann, "bot", "bot"])
    browser = signed_in_as(ann)
    for _ in range(2):  # Ann's tile, then her build; the bots play on
        drain(app)
        browser.post(
            f"/games/{game.public_id}/submit",
            {"moves": legal(session, game, 0)[0], "ply": str(plies(session, game))},
        )
    drain(app)
    session.expire_all()
    history = engine_game(session.get(Game, game.id)).view(0)["history"]
    news = moves_since(history, 0)
    assert {entry["seat"] for _, entry in news} == {1, 2}
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    section = page[
        page.index('id="since-last-turn"') : page.index(
            "</section>", page.index('id="since-last-turn"')
        )
    ]
    for seat in (1, 2):
        assert game.seats[seat].name in section
    for ply, entry in news:
        assert f'?ply={ply}">{entry["move"]}</a>' in section
    last = len(history)
    assert f'type="range" id="history-ply" name="ply" min="0" max="{last}" value="{last}"' in page
    past = browser.get(f"/games/{game.public_id}?ply=1").get_data(as_text=True)
    assert 'id="since-last-turn"' not in past and f'max="{last}" value="1"' in past


WORDS = {
    "fr": {"end": "fin", "token": "jeton", "rice": "rizière", "draw": "piocher"},
    "cs": {"end": "konec", "token": "žeton", "rice": "rýže", "draw": "vzít"},
}


@pytest.mark.parametrize("language", ["fr", "cs"])
def test_java_moves_on_the_page_speak_the_readers_language_and_end_stays_in_sight(
    app, session, make_user, signed_in_as, language
):
    ann = make_user("Ann")
    ann.language = language
    session.commit()
    game = java_ann_first(app, session, ann)
    words = WORDS[language]
    state = engine_game(game).state

    def said(text: str) -> str:
        return state.said_move(text, language)

    browser = signed_in_as(ann)
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert len(page.encode()) < PAGE_LIMIT
    moves = legal(session, game, 1)
    kinds = group_moves(moves, [])
    summaries = re.findall(r'<details class="move-kind"[^>]*>\s*<summary>([^<]*)</summary>', page)
    assert summaries == [f"{said(kind.kind)} ({kind.count})" for kind in kinds]
    assert f"<summary>{words['rice']} (" in page and f"<summary>{words['draw']} (" in page
    data = json.loads(re.search(r'id="legal-data">([^<]*)</script>', page).group(1))
    assert data["moves"] == moves  # the board's picks are matched against these
    for move in moves:  # as play.js says them
        assert " ".join(data["said"].get(word, word) for word in move.split(" ")) == said(move)

    triple = next(move for move in moves if move.startswith("triple "))
    follow = browser.get(
        f"/games/{game.public_id}/follow", query_string={"moves": said(triple), "ply": "0"}
    ).get_json()["legal"]
    lone = follow.index('id="lone-moves"')
    assert lone < follow.index('id="legal-moves"')
    assert follow.index(f'data-move="{words["end"]}"') < follow.index('id="legal-moves"')
    assert f'data-move="{words["token"]}"' in follow[lone : follow.index('id="legal-moves"')]
    assert int(re.search(r"<h3>[^<]*\((\d+)\)</h3>", follow).group(1)) > 700

    sent = browser.post(
        f"/games/{game.public_id}/submit", {"moves": f"{said(triple)}\n{words['end']}", "ply": "0"}
    )
    assert sent.status_code == 302
    drain(app)
    session.expire_all()
    history = engine_game(session.get(Game, game.id)).view(1)["history"]
    assert [entry["move"] for entry in history[:2]] == [triple, "end"]
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    log = page[page.index('<details class="log"') :]
    assert f"Ann: {said(triple)}</a>" in log and f"Ann: {words['end']}</a>" in log
    since = page[page.index('id="since-last-turn"') :]
    panel = page[page.index('<section class="board-panel">') :]
    for ply, entry in moves_since(history, 1):
        if " " in entry["move"] and said(entry["move"]) != entry["move"]:
            assert f'?ply={ply}">{said(entry["move"])}</a>' in since
    panel = panel[: panel.index("</section>")]
    for entry in history[2:][-MOVES_SHOWN:]:  # the bot's turn, as the panel lists it
        assert html.escape(said(entry["move"]), quote=False) in panel
