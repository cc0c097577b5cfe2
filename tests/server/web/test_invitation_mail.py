"""An invitation names its game: the title, who else sits at the table (bots
with their level) and the clock; the inviter chooses the invitee's language
(the page's unless changed), which their mails speak until they choose one,
for someone who has never signed in (a player who has reads English)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from pbem.i18n import in_language
from pbem.leagues.leagues import create_league
from pbem.leagues.notices import LEAGUE_INVITE
from pbem.mail.compose import compose
from pbem.models import Outbox, User
from pbem.services import accounts, notifications
from pbem.services.games import SeatSpec, join_game
from pbem.services.time_control import time_control_words
from tests.mail.helpers import text_of
from tests.server.clock.helpers import organised_game
from tests.server.web.page_helpers import created_game

FORM = "/games/new/taluva"


def address(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}@example.org"


def mailed(app, session, row: Outbox):
    with app.app_context():
        return compose(session, row, app.config)


def invitation_to(session, user: User, kind: str = notifications.INVITE) -> Outbox:
    return session.scalar(select(Outbox).where(Outbox.recipient_id == user.id, Outbox.kind == kind))


def test_the_form_offers_the_invitees_language_the_pages_first(signed_in_as, make_user):
    page = signed_in_as(make_user("Ann")).get(FORM, headers={"Accept-Language": "fr"})
    text = page.get_data(as_text=True)
    row = text[text.index('name="invite-language-1"') :]
    row = row[: row.index("</select>")]
    assert '<option value="fr" lang="fr" selected>Français</option>' in row


def test_a_game_invitation_names_its_table_and_clock_in_the_language_chosen(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    browser = signed_in_as(ann)
    browser.get(FORM)
    jana, bob = address("jana"), make_user("Bob")  # Jana has no account; Bob has played
    bob.signed_in_at = datetime.now(UTC)
    session.commit()
    form = {
        "title": "Friday game",
        "seat-0": "me",
        "seat-1": "bot:easy",
        "seat-2": "invite",
        "invite-2": jana,
        "invite-language-2": "cs",
        "seat-3": "invite",
        "invite-3": bob.email,
        "invite-language-3": "cs",
        "clock": "on",
        "days-per-move": "5",
        "bank-days": "0",
    }
    game = created_game(session, browser.post(FORM, form))
    invitee = accounts.user_by_email(session, jana)
    assert invitee.language == "cs" and bob.language is None
    row = invitation_to(session, invitee)
    assert row.payload["language"] == "cs"
    czech = text_of(mailed(app, session, row))
    with app.app_context(), in_language("cs"):
        clock = time_control_words(game)
    assert "Ann vás zve ke hře na pbem." in czech
    assert "Hra: Friday game (Taluva)." in czech
    assert "U stolu s vámi: Ann, Bot 2 (" in czech and ", 1 místo zatím neobsazené." in czech
    assert f"Časový limit: {clock}." in czech
    english = text_of(mailed(app, session, invitation_to(session, bob)))
    assert "The game: Friday game (Taluva)." in english
    assert "At the table with you: Ann, Bot 2 (easy), 1 seat not taken yet." in english
    assert f"Time control: {time_control_words(game)}." in english

    # Jana's later mails speak Czech too, until she chooses otherwise.
    join_game(session, game.public_id, invitee, None)
    join_game(session, game.public_id, bob, None)
    notifications.notify_turn(session, game, [2], ply=0)
    session.flush()
    turn = session.scalars(
        select(Outbox).where(Outbox.recipient_id == invitee.id, Outbox.kind == "your_turn")
    ).one()
    assert ", tah 1: " in str(mailed(app, session, turn)["Subject"])
    session.rollback()


def test_a_replacement_invitation_names_the_table_in_the_language_chosen(
    app, session, make_user, signed_in_as
):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)], "java")
    url = f"/games/{game.public_id}/organiser/replace"
    organiser = signed_in_as(org)
    carl = address("carl")
    asked = organiser.get(url, query_string={"position": "1", "email": carl})
    assert '<option value="en" lang="en" selected>English</option>' in asked.get_data(as_text=True)
    assert (
        organiser.post(url, {"position": "1", "email": carl, "language": "fr"}).status_code == 302
    )
    french = text_of(
        mailed(app, session, invitation_to(session, accounts.user_by_email(session, carl)))
    )
    assert "Org vous invite à reprendre la place de Bob" in french
    assert "À la table avec vous : Ann." in french
    with app.app_context(), in_language("fr"):
        assert f"Cadence : {time_control_words(game)}." in french


@pytest.mark.parametrize("channel", ["page", "api"])
def test_a_league_invitation_comes_in_the_language_chosen(
    app, api, session, make_user, signed_in_as, token_for, channel
):
    olga = make_user("Olga")
    league = create_league(session, olga, "Club", "toy-pick", 2, {"target": 3})
    session.commit()
    invited = address("nouveau")
    asked = {"email": invited, "language": "fr"}
    if channel == "page":
        browser = signed_in_as(olga)
        page = browser.get(f"/leagues/{league.public_id}").get_data(as_text=True)
        assert '<option value="en" lang="en" selected>English</option>' in page
        assert browser.post(f"/leagues/{league.public_id}/invite", asked).status_code == 302
    else:
        token = token_for(olga)
        wrong = api.call(
            "inviteEntrant", token, {**asked, "language": "de"}, league_id=league.public_id
        )
        assert wrong.status_code == 422
        done = api.call("inviteEntrant", token, asked, league_id=league.public_id)
        assert done.status_code == 201
    invitee = accounts.user_by_email(session, invited)
    assert invitee.language == "fr"
    row = invitation_to(session, invitee, LEAGUE_INVITE)
    assert row.payload["language"] == "fr"
    assert "Olga vous invite à la ligue Club sur pbem." in text_of(mailed(app, session, row))


def test_a_replacement_through_the_api_takes_the_newcomers_language(
    app, api, session, make_user, token_for
):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)], "java")
    token, carl = token_for(org), address("carl")
    body = {"position": 1, "email": carl, "language": "cs"}
    assert api.call("replacePlayer", token, body, game_id=game.public_id).status_code == 200
    newcomer = accounts.user_by_email(session, carl)
    assert newcomer.language == "cs"
    assert invitation_to(session, newcomer).payload["language"] == "cs"
