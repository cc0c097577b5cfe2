"""The organiser's panel on the game pages: shown to the game's creator only,
destructive actions confirmed first, each action an event in the history
that everyone sees, and a replacing player who arrives by the mailed link."""

from __future__ import annotations

import re
from datetime import timedelta

import time_machine
from sqlalchemy import select

from pbem.models import Game, OnTimeout, Outbox, Seat
from pbem.services import accounts, notifications
from pbem.services.games import SeatSpec, create_game
from tests.server.clock.helpers import fresh, organised_game, swept
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import moves_of

LINK = re.compile(r"https?://[^\s]+/take-over/[\w.-]+")


def page(browser, game: Game, suffix: str = "") -> str:
    return browser.get(f"/games/{game.public_id}{suffix}").get_data(as_text=True)


def test_only_the_organiser_sees_the_panel_and_may_act(app, session, make_user, signed_in_as):
    org, bob, eve = make_user("Org"), make_user("Bob"), make_user("Eve")
    game = organised_game(app, session, org, [SeatSpec(user=org), SeatSpec(user=bob)])
    assert 'id="organiser"' in page(signed_in_as(org), game)
    player = signed_in_as(bob)
    assert 'id="organiser"' not in page(player, game)
    refused = player.post(f"/games/{game.public_id}/organiser/pause")
    assert refused.status_code == 403 and "organiser" in refused.get_data(as_text=True)
    assert player.get(f"/games/{game.public_id}/organiser/abandon").status_code == 403
    assert signed_in_as(eve).post(f"/games/{game.public_id}/organiser/pause").status_code == 404
    assert fresh(session, Game, game.id).paused_at is None


def test_pause_extend_and_resume_show_in_everyones_history(app, session, make_user, signed_in_as):
    org, bob = make_user("Org"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=bob), SeatSpec(user=org)])
    organiser, player = signed_in_as(org), signed_in_as(bob)
    url = f"/games/{game.public_id}/organiser"
    done = organiser.post(f"{url}/pause")
    assert done.status_code == 302
    seen = page(player, game)
    assert 'id="paused"' in seen and "Org (organiser) paused the game" in seen
    assert 'class="event"' in seen
    bad = organiser.post(f"{url}/extend", {"position": "0", "days": "lots"})
    assert bad.status_code == 422 and "whole number of days" in bad.get_data(as_text=True)
    assert organiser.post(f"{url}/extend", {"position": "0", "days": "2"}).status_code == 302
    assert fresh(session, Seat, game.seats[0].id).extra_seconds == 2 * 86400
    assert organiser.post(f"{url}/resume").status_code == 302
    seen = page(player, game)
    assert 'id="paused"' not in seen
    for text in ("paused the game", "gave Bob 2 days more", "resumed the game"):
        assert text in seen
    assert 'id="organiser-done"' in page(organiser, game, "?organised=1")
    told = session.scalars(
        select(Outbox.recipient_id).where(
            Outbox.game_id == game.id, Outbox.kind == notifications.ORGANISER_EVENT
        )
    ).all()
    assert told == [bob.id] * 3  # the organiser knows already


def test_the_page_pauses_a_game_whose_clock_keeps_weekends_off(
    app, session, make_user, signed_in_as
):
    org, bob = make_user("Org"), make_user("Bob")
    game = organised_game(
        app, session, org, [SeatSpec(user=bob), SeatSpec(user=org)], weekends_off=True
    )
    organiser = signed_in_as(org)
    assert organiser.post(f"/games/{game.public_id}/organiser/pause").status_code == 302
    assert 'id="paused"' in page(signed_in_as(bob), game)
    assert fresh(session, Seat, game.seats[0].id).timeout_at is None
    assert organiser.post(f"/games/{game.public_id}/organiser/resume").status_code == 302
    assert fresh(session, Seat, game.seats[0].id).timeout_at is not None


def test_handing_a_seat_to_a_bot_asks_first(app, session, make_user, signed_in_as):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)])
    organiser = signed_in_as(org)
    url = f"/games/{game.public_id}/organiser/hand-to-bot"
    asked = organiser.get(f"{url}?position=0")
    assert asked.status_code == 200 and "Yes, hand it to a bot" in asked.get_data(as_text=True)
    assert fresh(session, Seat, game.seats[0].id).bot is None  # asking changes nothing
    assert organiser.post(url, {"position": "0"}).status_code == 302
    wait_for(lambda: moves_of(session, game), what="the bot to play the seat")
    assert fresh(session, Seat, game.seats[0].id).bot == "random"
    assert "handed the seat of Ann to a bot" in page(signed_in_as(bob), game)


def test_a_replacing_player_takes_over_by_the_mailed_link(
    app, session, make_user, signed_in_as, browser
):
    org, ann = make_user("Org"), make_user("Ann")
    game = organised_game(
        app, session, org, [SeatSpec(bot="random"), SeatSpec(user=ann)], "java", days_per_move=3
    )
    organiser = signed_in_as(org)
    # The organiser has no seat: the game's address shows them the watch page and the panel.
    shown = organiser.get(f"/games/{game.public_id}", follow_redirects=True)
    assert "Watching" in shown.get_data(as_text=True)
    assert 'id="organiser"' in shown.get_data(as_text=True)
    home = organiser.get("/").get_data(as_text=True)
    assert game.public_id in home[home.index('id="waiting"') : home.index('id="open"')]
    url = f"/games/{game.public_id}/organiser/replace"
    wrong = organiser.get(url, query_string={"position": "1", "email": "carl at home"})
    assert wrong.status_code == 422 and "not an e-mail address" in wrong.get_data(as_text=True)
    asked = organiser.get(url, query_string={"position": "1", "email": "carl@example.org"})
    assert asked.status_code == 200 and "Yes, give the seat" in asked.get_data(as_text=True)
    assert organiser.post(url, {"position": "1", "email": "carl@example.org"}).status_code == 302

    carl = accounts.user_by_email(session, "carl@example.org")
    invite = session.scalar(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == notifications.INVITE)
    )
    assert invite.recipient_id == carl.id and invite.payload["replaces"] == "Ann"
    link = invite.payload["link"]
    assert LINK.fullmatch(link)
    path = link[link.index("/take-over/") :]
    assert "Take over the seat" in browser.get(path).get_data(as_text=True)
    taken = browser.post(path)
    assert taken.status_code == 302 and "/welcome" in taken.headers["Location"]
    mine = page(browser, game)
    assert "Only you see" in mine and "D, MP, DP" in mine and 'id="moves"' in mine
    assert browser.post(path).status_code == 400  # the link works once
    assert signed_in_as(ann).get(f"/games/{game.public_id}").status_code == 404


def test_an_abandoned_game_says_so_everywhere(app, session, make_user, signed_in_as):
    org, bob = make_user("Org"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=org), SeatSpec(user=bob)])
    organiser, player = signed_in_as(org), signed_in_as(bob)
    url = f"/games/{game.public_id}/organiser/abandon"
    asked = organiser.get(url)
    assert asked.status_code == 200 and "Yes, abandon the game" in asked.get_data(as_text=True)
    assert fresh(session, Game, game.id).status == "active"
    assert organiser.post(url).status_code == 302
    seen = page(player, game)
    assert 'id="abandoned"' in seen and 'id="moves"' not in seen and "abandoned the game" in seen
    assert 'id="record-link"' in seen  # nothing more will be drawn: its record may go
    assert 'id="organiser"' not in page(organiser, game)
    assert 'id="abandoned"' in page(player, game, "/watch")
    home = player.get("/").get_data(as_text=True)
    finished = home[home.index('id="finished"') :]
    assert game.public_id in finished
    assert organiser.post(url).status_code == 409


def test_a_wait_timeout_shows_in_the_history_and_the_panel(app, session, make_user, signed_in_as):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(
        app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)], on_timeout=OnTimeout.WAIT
    )
    with time_machine.travel(game.seats[0].timeout_at + timedelta(minutes=1), tick=False):
        assert swept(session, game) == ["timeout"]
    seen = page(signed_in_as(bob), game)
    assert "timeout: Ann ran out of time. The game waits for its organiser" in seen
    panel = page(signed_in_as(org), game, "/watch")
    assert "Ann (timed out)" in panel and 'id="extend-button"' in panel


def test_a_game_waiting_for_players_may_be_abandoned(app, session, make_user, signed_in_as):
    org, ann = make_user("Org"), make_user("Ann")
    game = create_game(session, org, "taluva", [SeatSpec(user=org), SeatSpec()])
    session.commit()
    organiser = signed_in_as(org)
    waiting = page(organiser, game)
    assert "waiting for players" in waiting and 'id="abandon-link"' in waiting
    assert organiser.post(f"/games/{game.public_id}/organiser/abandon").status_code == 302
    assert 'id="abandoned"' in page(organiser, game)
    assert signed_in_as(ann).post(f"/games/{game.public_id}/join").status_code == 404
