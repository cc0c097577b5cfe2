"""Starting a game (seats, options, bots, invitations), joining it, my games."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.models import Game, GameStatus, Outbox, OutboxStatus, Seat
from tests.server.conftest import wait_for
from tests.server.csrf_browser import Browser
from tests.server.web.page_helpers import created_game, path_of

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def test_choose_game_lists_every_ruleset(signed_in_as, make_user):
    page = signed_in_as(make_user()).get("/games/new").get_data(as_text=True)
    for title in ("Taluva", "Samurai", "Java"):
        assert title in page


def test_new_game_form_offers_the_rulesets_options(signed_in_as, make_user):
    page = signed_in_as(make_user()).get("/games/new/taluva").get_data(as_text=True)
    assert 'name="option-tiles"' in page and 'name="option-ranking"' in page


def test_game_against_a_bot_starts_at_once_and_shows_whose_turn(signed_in_as, make_user, session):
    browser = signed_in_as(make_user("Ann"))
    browser.get("/games/new/taluva")
    game = created_game(
        session, browser.post("/games/new/taluva", {"seat-0": "me", "seat-1": "bot:random"})
    )
    assert game.status == GameStatus.ACTIVE
    assert [s.bot for s in game.seats] == [None, "random"]
    home = browser.get("/").get_data(as_text=True)
    assert "Your turn" in home and game.public_id in home


@pytest.mark.parametrize(("choice", "bot"), [("bot:random", "random"), ("bot:easy", "easy")])
def test_bot_moving_first_is_set_going(signed_in_as, make_user, session, choice, bot):
    browser = signed_in_as(make_user("Ann"))
    browser.get("/games/new/taluva")
    game = created_game(
        session, browser.post("/games/new/taluva", {"seat-0": choice, "seat-1": "me"})
    )
    assert game.seats[0].bot == bot

    def bot_moved() -> bool:
        session.expire_all()
        return 1 in session.get(Game, game.id).to_act

    wait_for(bot_moved, what="the bot's first turn")


def test_options_are_passed_to_the_engine(signed_in_as, make_user, session):
    browser = signed_in_as(make_user())
    browser.get("/games/new/taluva")
    response = browser.post(
        "/games/new/taluva",
        {"seat-0": "me", "seat-1": "bot:random", "option-tiles": "36", "option-ranking": "1"},
    )
    assert created_game(session, response).options == {"tiles": 36, "ranking": True, "teams": False}


def test_bad_options_and_player_counts_are_refused_with_the_reason(signed_in_as, make_user):
    browser = signed_in_as(make_user())
    browser.get("/games/new/taluva")
    lonely = browser.post("/games/new/taluva", {"seat-0": "me"})
    assert lonely.status_code == 422
    assert "Taluva is for 2 to 4 players, not 1" in lonely.get_data(as_text=True)
    teams = browser.post(
        "/games/new/taluva", {"seat-0": "me", "seat-1": "bot:random", "option-teams": "1"}
    )
    assert teams.status_code == 422
    assert "the team variant is for 4 players" in teams.get_data(as_text=True)
    two_me = browser.post("/games/new/taluva", {"seat-0": "me", "seat-1": "me"})
    assert "you can take one seat only" in two_me.get_data(as_text=True)


def invite(browser: Browser, session, email: str) -> tuple[Game, str]:
    browser.get("/games/new/taluva")
    response = browser.post(
        "/games/new/taluva", {"seat-0": "me", "seat-1": "invite", "invite-1": email}
    )
    game = created_game(session, response)
    row = session.scalar(select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "invite"))
    return game, row.payload["link"]


def test_invitation_keeps_a_seat_and_queues_a_mail(signed_in_as, make_user, session):
    game, link = invite(signed_in_as(make_user("Ann")), session, "Friend-1@Example.org")
    assert game.status == GameStatus.OPEN
    assert game.seats[1].invited_email == "friend-1@example.org"
    row = session.scalar(select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "invite"))
    assert row.recipient.email == "friend-1@example.org"
    assert row.payload["from"] == "Ann" and row.payload["game"] == game.public_id
    assert "/join/" in link


def test_invitation_mail_goes_out(app, signed_in_as, make_user, session):
    game, link = invite(signed_in_as(make_user("Ann")), session, "friend-4@example.org")

    def settled() -> Outbox | None:
        session.expire_all()
        row = session.scalar(
            select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "invite")
        )
        return row if row.sent_at or row.last_error else None

    row = wait_for(settled, what="the invitation to be sent")
    assert (row.status, row.last_error) == (OutboxStatus.SENT, None)
    # The folder holds every mail of this test process, a file named by its
    # row's id (the other database's rows have the same ids).
    mails = [
        BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        for path in Path(app.config["PBEM_MAIL_FOLDER"]).glob(f"*-{row.id}.eml")
    ]
    sent = [m for m in mails if link in m.get_body(("plain",)).get_content()]
    assert [str(m["Subject"]) for m in sent] == ["Ann invites you to a game"]


def test_invitation_link_signs_the_invitee_in_and_starts_the_game(
    app, signed_in_as, make_user, session
):
    game, link = invite(signed_in_as(make_user("Ann")), session, "friend-2@example.org")
    friend = Browser(app.test_client())
    assert "Take the seat" in friend.get(path_of(link)).get_data(as_text=True)
    response = friend.post(path_of(link))
    assert response.status_code == 302 and response.location.startswith("/welcome")
    session.expire_all()
    game = session.get(Game, game.id)
    assert game.status == GameStatus.ACTIVE
    assert game.seats[1].user.email == "friend-2@example.org"
    assert friend.get(path_of(link)).status_code == 400  # the seat is taken: used up


def test_a_kept_seat_is_not_for_others(app, signed_in_as, make_user, session):
    game, link = invite(signed_in_as(make_user("Ann")), session, "friend-3@example.org")
    other = signed_in_as(make_user("Eve"))
    assert other.get(path_of(link)).status_code == 403
    other.get(f"/games/{game.public_id}")
    refused = other.post(f"/games/{game.public_id}/join")
    assert refused.status_code == 404  # an invitation is nobody else's business
    session.expire_all()
    assert session.get(Seat, game.seats[1].id).user_id is None


def test_anyone_may_take_an_open_seat(signed_in_as, make_user, session):
    ann = signed_in_as(make_user("Ann"))
    ann.get("/games/new/taluva")
    game = created_game(session, ann.post("/games/new/taluva", {"seat-0": "me", "seat-1": "open"}))
    bob = signed_in_as(make_user("Bob"))
    assert "Join" in bob.get("/").get_data(as_text=True)
    assert bob.post(f"/games/{game.public_id}/join").status_code == 302
    session.expire_all()
    assert session.get(Game, game.id).status == GameStatus.ACTIVE


def test_an_invitation_shows_to_its_invitee_and_creator_only(app, signed_in_as, make_user, session):
    ann = make_user("Ann")
    friend = make_user("Friend")
    game, _ = invite(signed_in_as(ann), session, friend.email)
    eve = signed_in_as(make_user("Eve"))
    home = eve.get("/").get_data(as_text=True)
    assert game.public_id not in home and friend.email not in home
    assert eve.get(f"/games/{game.public_id}").status_code == 404
    watched = app.test_client().get(f"/games/{game.public_id}/watch").get_data(as_text=True)
    assert friend.email not in watched
    for who in (ann, friend):
        page = signed_in_as(who).get(f"/games/{game.public_id}").get_data(as_text=True)
        assert f"invited: {friend.email}" in page, who.name
    invitee_home = signed_in_as(friend).get("/").get_data(as_text=True)
    assert game.public_id in invitee_home and "Join" in invitee_home
    assert game.public_id in signed_in_as(ann).get("/").get_data(as_text=True)


def test_an_open_seat_beside_an_invitation_shows_without_the_address(
    signed_in_as, make_user, session
):
    ann = signed_in_as(make_user("Ann"))
    ann.get("/games/new/taluva")
    response = ann.post(
        "/games/new/taluva",
        {"seat-0": "me", "seat-1": "invite", "invite-1": "friend-9@example.org", "seat-2": "open"},
    )
    game = created_game(session, response)
    eve = signed_in_as(make_user("Eve"))
    home = eve.get("/").get_data(as_text=True)
    page = eve.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert game.public_id in home and "Join this game" in page
    assert "friend-9@example.org" not in home + page
    assert "kept for an invited player" in page
