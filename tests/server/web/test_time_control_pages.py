"""Choosing a time control on the new-game form, and seeing it on the game
page, in the list of games looking for players and on an invitation."""

from __future__ import annotations

import html
import uuid

from sqlalchemy import func, select

from pbem.mail.compose import compose
from pbem.models import Game, OnTimeout, Outbox
from tests.mail.helpers import text_of as text_of_mail
from tests.server.web.page_helpers import created_game, path_of

FORM = "/games/new/taluva"


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_the_form_offers_a_clock_of_three_days_by_default(signed_in_as, make_user):
    page = signed_in_as(make_user()).get(FORM).get_data(as_text=True)
    assert 'name="clock" value="none">' in page  # no clock: offered, not chosen
    assert 'name="clock" value="on" checked>' in page
    assert 'name="days-per-move" min="1" max="30" value="3"' in page
    assert 'name="bank-days" min="0" max="60" value="0"' in page
    assert '<option value="bot" selected>a bot plays that move</option>' in page
    assert 'name="weekends-off" value="1">' in page  # not checked


def test_a_game_gets_the_clock_chosen_and_its_page_says_so(signed_in_as, make_user, session):
    browser = signed_in_as(make_user("Ann"))
    browser.get(FORM)
    chosen = {
        "clock": "on",
        "days-per-move": "2",
        "bank-days": "4",
        "weekends-off": "1",
        "on-timeout": "wait",
    }
    game = created_game(
        session, browser.post(FORM, {"seat-0": "me", "seat-1": "bot:random", **chosen})
    )
    assert (game.days_per_move, game.bank_days, game.weekends_off) == (2, 4, True)
    assert game.on_timeout == OnTimeout.WAIT
    assert game.seats[0].timeout_at is not None
    page = text_of(browser.get(f"/games/{game.public_id}"))
    expected = (
        "Time control: 2 days per move, bank 4 days, weekends off;"
        " on timeout the organiser decides."
    )
    assert expected in page
    watched = text_of(browser.get(f"/games/{game.public_id}/watch"))
    assert expected in watched


def test_no_clock_makes_a_friendly_game(signed_in_as, make_user, session):
    browser = signed_in_as(make_user("Ann"))
    browser.get(FORM)
    response = browser.post(
        FORM, {"seat-0": "me", "seat-1": "bot:random", "clock": "none", "days-per-move": "junk"}
    )
    game = created_game(session, response)
    assert game.days_per_move is None and game.seats[0].timeout_at is None
    page = text_of(browser.get(f"/games/{game.public_id}"))
    assert "Time control: no clock (a friendly game)." in page


def test_bad_clocks_are_refused_with_the_reason_and_the_form_kept(signed_in_as, make_user, session):
    browser = signed_in_as(make_user("Ann"))
    browser.get(FORM)
    games_before = session.scalar(select(func.count()).select_from(Game))
    cases = [
        ({"days-per-move": "0"}, "days per move must be from 1 to 30"),
        ({"days-per-move": "x"}, "days per move must be a whole number from 1 to 30, not 'x'"),
        ({"days-per-move": ""}, "days per move must be a whole number from 1 to 30"),
        ({"bank-days": "-1"}, "bank days must be a whole number from 0 to 60, not '-1'"),
        ({"bank-days": "61"}, "bank days must be from 0 to 60"),
        ({"on-timeout": "shrug"}, "on timeout must be one of bot, forfeit, wait, not 'shrug'"),
    ]
    for bad, message in cases:
        fields = {"clock": "on", "days-per-move": "3", "bank-days": "0", "on-timeout": "bot"}
        form = {"seat-0": "me", "seat-1": "bot:random", "weekends-off": "1", **fields, **bad}
        refused = browser.post(FORM, form)
        assert refused.status_code == 422, bad
        page = text_of(refused)
        assert message in page, (bad, message)
        field, value = next(iter(bad.items()))
        if field != "on-timeout":
            assert f'name="{field}" min="' in page and f'value="{value}"' in page
        assert 'name="weekends-off" value="1" checked>' in page  # what was chosen stays
    session.expire_all()
    assert session.scalar(select(func.count()).select_from(Game)) == games_before


def test_games_looking_for_players_show_their_clock(app, signed_in_as, make_user, session):
    ann = signed_in_as(make_user("Ann"))
    ann.get(FORM)
    response = ann.post(
        FORM,
        {"seat-0": "me", "seat-1": "open", "clock": "on", "days-per-move": "5", "bank-days": "0"},
    )
    game = created_game(session, response)
    words = "5 days per move; on timeout a bot plays that move"
    bob = signed_in_as(make_user("Bob"))
    home = text_of(bob.get("/"))
    row = home[home.index(game.public_id) :]
    assert words in row[: row.index("</li>")]
    assert f"Time control: {words}." in text_of(bob.get(f"/games/{game.public_id}"))


def test_an_invitation_page_and_mail_show_the_clock(app, signed_in_as, make_user, session):
    ann = signed_in_as(make_user("Ann"))
    ann.get(FORM)
    invited = {"seat-1": "invite", "invite-1": f"friend-{uuid.uuid4().hex[:8]}@example.org"}
    clock = {"clock": "on", "days-per-move": "7", "bank-days": "10", "on-timeout": "forfeit"}
    game = created_game(session, ann.post(FORM, {"seat-0": "me", **invited, **clock}))
    row = session.scalar(select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "invite"))
    page = text_of(app.test_client().get(path_of(row.payload["link"])))
    words = "7 days per move, bank 10 days; on timeout the player loses the seat"
    assert f"Time control: {words}." in page
    assert f"Time control: {words}." in text_of_mail(compose(session, row, app.config))
