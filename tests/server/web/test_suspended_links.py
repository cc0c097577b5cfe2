"""A suspended account is refused by every mailed link that signs in or
seats someone, with a page in the reader's language, and the link stays
unused: a game invitation, a league invitation and a take-over link (a
sign-in link: test_account_pages.py)."""

from __future__ import annotations

from sqlalchemy import select

from pbem.cli import main
from pbem.leagues.leagues import create_league, invite_entrant
from pbem.models import Entrant, GameStatus, Seat
from pbem.services.games import SeatSpec, create_game
from pbem.services.links import invite_token, league_invite_token, take_over_url
from pbem.services.organiser import replace
from tests import toy_game  # noqa: F401  (registers the toy ruleset)
from tests.server.csrf_browser import Browser
from tests.server.signed_in import is_signed_in
from tests.server.suspending import post_while_suspending
from tests.server.web.page_helpers import path_of

REFUSALS = {
    "en": "this account is suspended",
    "fr": "ce compte est suspendu",
    "cs": "tento účet je pozastavený",
}


def refused_once_suspended(app, session, email: str, path: str) -> None:
    """After `pbem user suspend`, the link's page refuses in each reader's
    language, and so does its button; the browser that tried is signed in
    as nobody."""
    answer = app.test_cli_runner().invoke(main, ["user", "suspend", email])
    assert answer.exit_code == 0, answer.output
    browser = Browser(app.test_client())
    for language, refusal in REFUSALS.items():
        page = browser.get(path, headers={"Accept-Language": language})
        assert page.status_code == 400, page.get_data(as_text=True)
        assert refusal in page.get_data(as_text=True).lower(), language
    taken = browser.post(path)
    assert taken.status_code == 400 and REFUSALS["en"] in taken.get_data(as_text=True).lower()
    assert not is_signed_in(browser)
    session.expire_all()


def test_a_game_invitation_mailed_before_a_suspension_seats_nobody(app, session, make_user):
    ann, ivy = make_user("Ann"), make_user("Ivy")
    game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(invite=ivy.email)])
    session.commit()
    with app.app_context():
        path = f"/join/{invite_token(game.seats[1].id, ivy.email)}"
    refused_once_suspended(app, session, ivy.email, path)
    seat = session.get(Seat, game.seats[1].id)
    assert (seat.user_id, seat.invited_email) == (None, ivy.email)  # still kept, still open
    assert game.status == GameStatus.OPEN


def test_a_league_invitation_mailed_before_a_suspension_makes_no_entrant(app, session, make_user):
    org, ivy = make_user("Org"), make_user("Ivy")
    league = create_league(session, org, "Club", "toy-pick", 2, {"target": 3})
    invite_entrant(session, league, org, ivy.email, "https://pbem.test/league")
    session.commit()
    with app.app_context():
        path = f"/leagues/invitation/{league_invite_token(league.public_id, ivy.email)}"
    refused_once_suspended(app, session, ivy.email, path)
    places = session.scalars(select(Entrant).where(Entrant.league_id == league.id)).all()
    assert [(p.invited_email, p.user_id) for p in places] == [(ivy.email, None)]


def test_a_take_over_link_mailed_before_a_suspension_signs_nobody_in(app, session, make_user):
    org, ann, bob, carl = make_user("Org"), make_user("Ann"), make_user("Bob"), make_user("Carl")
    game = create_game(session, org, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob)])
    session.commit()
    with app.app_context():
        replace(session, org, game.public_id, 1, carl.email, take_over_url)
        session.commit()
        path = path_of(take_over_url(game.seats[1], carl.email))
    refused_once_suspended(app, session, carl.email, path)
    seat = session.get(Seat, game.seats[1].id)
    assert (seat.user_id, seat.invited_email) == (carl.id, carl.email)  # the link is unused


def test_a_game_invitation_taken_while_a_suspension_commits_seats_nobody(
    postgres_only, session, make_user
):
    """The invitation's button is pressed while the suspension holds the
    account's lock: once it commits, the link refuses, the seat stays open."""
    app = postgres_only
    ann, ivy = make_user("Ann"), make_user("Ivy")
    game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(invite=ivy.email)])
    session.commit()
    with app.app_context():
        path = f"/join/{invite_token(game.seats[1].id, ivy.email)}"
    browser = Browser(app.test_client())
    browser.get(path)  # the invitation's page, before the suspension
    taken = post_while_suspending(app, browser, path, ivy.id)
    assert taken.status_code == 400 and REFUSALS["en"] in taken.get_data(as_text=True).lower()
    session.expire_all()
    assert session.get(Seat, game.seats[1].id).user_id is None
    assert not is_signed_in(browser)
