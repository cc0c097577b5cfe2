"""A player's account on the site: the data download, deletion by a mailed
link, suspension on every channel, chat moderation, the administrators'
page and the privacy page, in the three languages."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

from sqlalchemy import select

from pbem.accounts.deletion import delete_account
from pbem.cli import main
from pbem.mail import inbound
from pbem.models import ChatMessage, Outbox, Submission, User, utcnow
from pbem.services import chat
from pbem.services.games import SeatSpec, create_game
from pbem.services.links import sign_in_token
from pbem.services.notifications import DELETE_ACCOUNT
from pbem.services.pipeline import process_submission
from pbem.services.submissions import submit
from tests import toy_game  # noqa: F401  (registers the toy ruleset)
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import rivals, stored_first_tile
from tests.server.player_world import KINDS, a_players_world


def test_the_settings_page_downloads_everything_as_one_file(make_user, signed_in_as):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    assert 'href="/settings/export"' in browser.get("/settings").get_data(as_text=True)
    download = browser.get("/settings/export")
    assert download.headers["Content-Disposition"].startswith("attachment;")
    assert set(json.loads(download.get_data())) >= set(KINDS)


def test_an_account_is_deleted_only_through_the_mailed_link(session, make_user, signed_in_as):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get("/settings")
    asked = browser.post("/settings/delete")
    assert ann.email in asked.get_data(as_text=True)
    mail = session.scalar(
        select(Outbox).where(Outbox.recipient_id == ann.id, Outbox.kind == DELETE_ACCOUNT)
    )
    link = mail.payload["link"].split("://", 1)[1].split("/", 1)[1]
    session.expire_all()
    assert session.get(User, ann.id).deleted_at is None  # asking deletes nothing
    confirm = browser.get(f"/{link}")
    assert ann.email in confirm.get_data(as_text=True)
    assert session.get(User, ann.id).deleted_at is None  # nor does opening the link
    done = browser.post(f"/{link}", {"confirm": "1"})
    assert done.status_code == 200
    session.expire_all()
    assert session.get(User, ann.id).deleted_at is not None
    assert browser.get("/settings").status_code == 302  # signed out
    assert browser.get(f"/{link}").status_code == 400  # the link is spent
    assert browser.client.get("/account/delete/forged").status_code == 400


def seat_mail(user: User, token: str, body: str) -> bytes:
    return (
        f"From: {user.email}\r\nTo: play+{token}@localhost\r\nSubject: Re: move\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@example.org>\r\n\r\n{body}\r\n"
    ).encode()


def test_a_suspended_user_is_refused_on_every_channel_and_a_bot_plays(
    app, session, make_user, signed_in_as, token_for, api
):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob)], {})
    session.commit()
    token = token_for(ann)
    browser = signed_in_as(ann)
    with app.app_context():
        stale_link = sign_in_token(ann.id, ann.signed_in_at)
    suspended = app.test_cli_runner().invoke(main, ["user", "suspend", ann.email])
    assert suspended.exit_code == 0, suspended.output
    session.expire_all()
    # Pages: the session, a new sign-in link and one made before.
    assert browser.get("/settings").status_code == 302
    asked = browser.post("/sign-in", {"email": ann.email})
    assert asked.status_code == 403 and "suspended" in asked.get_data(as_text=True)
    assert browser.get(f"/sign-in/{stale_link}").status_code == 400
    assert browser.get(f"/calendar/{ann.calendar_token}.ics").status_code == 404
    # The API.
    assert api.call("exportAccount", token).status_code == 401
    # Mail to the seat's address.
    seat = game.seats[0]
    with app.app_context():
        row = inbound.store(session, seat_mail(ann, seat.token, "pick 2"), "http", ann.email)
        outcome = inbound.process(session, row.id, app.config)
    assert outcome.outcome == "refused" and outcome.detail == "account suspended"
    # The stand-in bot plays the seat, which stays Ann's.
    session.refresh(seat)
    assert seat.user_id == ann.id and seat.bot is not None and seat.resigned_at is None

    def moves_of_the_seat() -> list[Submission]:
        session.rollback()  # a snapshot of now: SQLite keeps one per transaction
        return session.scalars(select(Submission).where(Submission.seat_id == seat.id)).all()

    sent = wait_for(moves_of_the_seat, what="the stand-in's move (the bots' worker thinks)")
    assert [s.channel for s in sent] == ["bot"]
    bob_moves = submit(session, game.seats[1], "pick 1", "api")
    session.commit()
    process_submission(session, sent[0].id)
    process_submission(session, bob_moves.id)
    session.expire_all()
    assert len(game.moves) >= 2  # the round was played, the bot's pick with Bob's
    mails = select(Outbox.kind).where(Outbox.recipient_id == ann.id, Outbox.game_id == game.id)
    assert session.scalars(mails).all() == ["your_turn"]  # the first round's: none since
    # Restored: Ann plays her seat again.
    assert app.test_cli_runner().invoke(main, ["user", "restore", ann.email]).exit_code == 0
    session.refresh(seat)
    assert seat.bot is None
    assert api.call("exportAccount", token).status_code == 200


def test_suspending_twice_or_restoring_an_active_account_is_refused(session, make_user, app):
    ann = make_user("Ann")
    runner = app.test_cli_runner()
    assert runner.invoke(main, ["user", "restore", ann.email]).exit_code == 1
    assert runner.invoke(main, ["user", "suspend", ann.email]).exit_code == 0
    assert "suspended already" in runner.invoke(main, ["user", "suspend", ann.email]).output
    assert runner.invoke(main, ["user", "suspend", "nobody@example.org"]).exit_code == 1


def test_an_organiser_or_an_administrator_removes_a_chat_line(
    app, session, make_user, signed_in_as, token_for, api
):
    ann, bob, eve = make_user("Ann"), make_user("Bob"), make_user("Eve")
    _done, game = rivals(session, ann, bob)  # Bob organises the game going on
    line = chat.post(session, game.seats[1], "something rude", "web", 500).message
    other = chat.post(session, game.seats[0], "something kind", "web", 500).message
    session.commit()
    as_ann = signed_in_as(ann)
    page = as_ann.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "something rude" in page and f"/chat/{line.id}/remove" not in page
    refused = as_ann.post(f"/games/{game.public_id}/chat/{line.id}/remove")
    assert refused.status_code == 403
    as_bob = signed_in_as(bob)
    assert f"/chat/{line.id}/remove" in as_bob.get(f"/games/{game.public_id}").get_data(
        as_text=True
    )
    assert as_bob.post(f"/games/{game.public_id}/chat/{line.id}/remove").status_code == 302
    page = as_ann.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "something rude" not in page and "(removed)" in page and "something kind" in page
    assert (
        api.call(
            "removeChatLine", token_for(eve), game_id=game.public_id, message_id=other.id
        ).status_code
        == 403
    )
    assert app.test_cli_runner().invoke(main, ["user", "admin", eve.email]).exit_code == 0
    removed = api.call(
        "removeChatLine", token_for(eve), game_id=game.public_id, message_id=other.id
    )
    assert removed.status_code == 200 and removed.get_json()["text"] == ""
    session.expire_all()
    texts = session.scalars(select(ChatMessage.text).where(ChatMessage.game_id == game.id)).all()
    assert texts == ["", ""]


def test_the_administrators_page_is_for_administrators(app, session, make_user, signed_in_as):
    ann, root = make_user("Ann"), make_user("Root")
    root.is_admin = True
    failed = Outbox(
        recipient_id=ann.id,
        kind="sign_in",
        payload={"link": "x"},
        status="failed",
        last_error="boom",
    )
    session.add(failed)
    stuck = stored_first_tile(session)
    stuck.created_at = utcnow() - timedelta(hours=1)
    session.commit()
    with app.app_context():
        stranger = inbound.store(session, seat_mail(ann, "no-such-seat", "pick 1"), "http")
        inbound.process(session, stranger.id, app.config)
    assert signed_in_as(ann).get("/admin").status_code == 403
    page = signed_in_as(root).get("/admin").get_data(as_text=True)
    assert f"#{failed.id} sign_in" in page and "boom" in page
    assert f"#{stuck.id} " in page.split('id="stuck-submissions"')[1]
    assert "no seat for this address and sender" in page.split('id="refusals"')[1]
    assert "Administration" in signed_in_as(root).get("/settings").get_data(as_text=True)


def test_the_privacy_page_lists_what_is_kept_in_three_languages(app, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_PRIVACY_CONTACT", "dpo@club.example")
    monkeypatch.setitem(app.config, "PBEM_PRIVACY_TEXT", "Run by the Club.")
    client = app.test_client()
    english = client.get("/privacy").get_data(as_text=True)
    for words in (
        "PBEM_MAIL_KEEP_DAYS",
        "PBEM_OUTBOX_KEEP_DAYS",
        "dpo@club.example",
        "Run by the Club.",
    ):
        assert words in english
    assert f"{app.config['PBEM_MAIL_KEEP_DAYS']} days (PBEM_MAIL_KEEP_DAYS)" in english
    french = client.get("/privacy", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    czech = client.get("/privacy", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Ce que pbem garde sur vous" in french
    assert "Co o vás pbem uchovává" in czech
    assert 'href="/privacy"' in client.get("/sign-in").get_data(as_text=True)


def test_a_deleted_players_seat_shows_as_a_former_player_in_each_language(
    app, session, make_user, signed_in_as
):
    ann, bob = make_user("Ann"), make_user("Bob")
    _done, game = rivals(session, ann, bob)
    with app.app_context():
        delete_account(session, session.get(User, ann.id))
    session.commit()
    browser = signed_in_as(bob)
    for language, words in (
        ("en", "former player"),
        ("fr", "ancien joueur"),
        ("cs", "bývalý hráč"),
    ):
        bob.language = language
        session.commit()
        page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
        assert f"{words} {ann.id}" in page


def test_a_league_organiser_removes_a_line_in_a_league_game(session, make_user, token_for, api):
    _ann, bob, cem, _done, _going_on, season = a_players_world(session, make_user)
    game = season.games[0]  # Ann against Cem; Bob organises the league, not the game
    seat = next(s for s in game.seats if s.user_id == cem.id)
    line = chat.post(session, seat, "off-topic", "api", 500).message
    session.commit()
    where = {"game_id": game.public_id, "message_id": line.id}
    assert api.call("removeChatLine", token_for(cem), **where).status_code == 403
    removed = api.call("removeChatLine", token_for(bob), **where)
    assert removed.status_code == 200 and removed.get_json()["removed_at"]
    listed = api.call("listChat", token_for(cem), game_id=game.public_id).get_json()
    assert [(m["text"], bool(m["removed_at"])) for m in listed] == [("", True)]


def test_a_deleted_players_league_place_shows_as_a_former_player(
    app, session, make_user, signed_in_as
):
    ann, bob, _cem, _done, _going_on, season = a_players_world(session, make_user)
    with app.app_context():
        delete_account(session, session.get(User, ann.id))
    session.commit()
    bob.language = "cs"
    session.commit()
    page = signed_in_as(bob).get(f"/leagues/{season.league.public_id}/seasons/1")
    assert f"bývalý hráč {ann.id}" in page.get_data(as_text=True)


def test_the_zones_offered_are_places_and_the_users_own(session, make_user, signed_in_as):
    """The list offered "Factory" and "localtime", which are no place."""
    ann = make_user("Ann")
    page = signed_in_as(ann).get("/settings").get_data(as_text=True)
    offered = re.findall(r"<option(?: selected)?>([^<]+)</option>", page)
    assert "Europe/Prague" in offered and "America/New_York" in offered and "UTC" in offered
    assert not {"Factory", "localtime", "posixrules", "Japan"} & set(offered)
    ann.time_zone = "US/Eastern"  # chosen when aliases were offered: kept, and shown chosen
    session.commit()
    page = signed_in_as(ann).get("/settings").get_data(as_text=True)
    assert "<option selected>US/Eastern</option>" in page
