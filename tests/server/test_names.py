"""Names go into mail headers: whatever sets one refuses control characters,
and nothing is stored when it does."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import update

from pbem.leagues.leagues import create_league
from pbem.models import Game, Seat, User
from pbem.services import accounts
from pbem.services.errors import Invalid
from pbem.services.games import SeatSpec, create_game, join_game


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("Eve\nBcc: all@x.test", "control characters"),
        ("Eve\r", "control characters"),
        ("Eve\x00", "control characters"),
        ("Eve\u2028", "control characters"),
        ("\u202eEve", "characters that reorder the text"),  # shows "evE"
        ("\u2067Eve", "characters that reorder the text"),
    ],
)
def test_no_user_or_seat_takes_a_name_with_a_control_character(session, make_user, name, refusal):
    eve = make_user("Eve")
    game = create_game(session, eve, "taluva", [SeatSpec(user=eve), SeatSpec(bot="random")])
    session.commit()
    with pytest.raises(Invalid, match=f"may not contain {refusal}"):
        session.get(User, eve.id).name = name
    with pytest.raises(Invalid, match=f"may not contain {refusal}"):
        session.get(Game, game.id).seats[0].name = name
    session.rollback()
    assert session.get(Seat, game.seats[0].id).name == "Eve"


def test_joining_refuses_a_name_stored_before_names_were_checked(session, make_user):
    """An old name with a line break cannot reach a seat, where every mail to the
    other players would carry it; the player is told to change it."""
    ann, eve = make_user("Ann"), make_user("Eve")
    game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec()])
    session.commit()
    session.execute(update(User).where(User.id == eve.id).values(name="Eve\nX"))
    session.commit()
    with pytest.raises(Invalid, match="may not contain control characters"):
        join_game(session, game.public_id, session.get(User, eve.id), None)
    session.rollback()
    assert session.get(Game, game.id).seats[1].user_id is None


MISLEADING = ["\u202eAnn", "An\u2066n", "Ann\u200f", "\u200b", "\ufeff", "\u3164", "\u200b \u2060"]


@pytest.mark.parametrize("name", MISLEADING)
def test_no_name_reorders_text_or_shows_nothing(session, make_user, name):
    ann = make_user("Ann")
    with pytest.raises(Invalid):
        accounts.create_user(session, f"x-{uuid.uuid4().hex[:6]}@example.org", name)
    with pytest.raises(Invalid):
        accounts.update_settings(session, ann, name=name)
    with pytest.raises(Invalid):
        create_league(session, ann, name, "taluva", 2)
    session.rollback()
    assert session.get(User, ann.id).name == "Ann"


def test_names_of_other_scripts_and_marks_are_kept(session, make_user):
    ann = make_user("Ann")
    for name in ("Zoë", "Zoe\u0308", "李小龍", "محمد", "Ann\u200dMarie"):
        accounts.update_settings(session, ann, name=name)
        assert ann.name == name


def test_the_api_and_the_settings_page_refuse_a_misleading_name(app, session, make_user):
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    client = app.test_client()
    answer = client.patch(
        "/api/v1/settings", json={"name": "\u202eAnn"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 422
    assert "reorder" in answer.get_json()["message"]
    session.expire_all()
    assert session.get(User, ann.id).name == "Ann"
