"""Names go into mail headers: whatever sets one refuses control characters,
and nothing is stored when it does."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from pbem.models import Game, Seat, User
from pbem.services.errors import Invalid
from pbem.services.games import SeatSpec, create_game, join_game


@pytest.mark.parametrize("name", ["Eve\nBcc: all@x.test", "Eve\r", "Eve\x00", "Eve\u2028"])
def test_no_user_or_seat_takes_a_name_with_a_control_character(session, make_user, name):
    eve = make_user("Eve")
    game = create_game(session, eve, "taluva", [SeatSpec(user=eve), SeatSpec(bot="random")])
    session.commit()
    with pytest.raises(Invalid, match="may not contain control characters"):
        session.get(User, eve.id).name = name
    with pytest.raises(Invalid, match="may not contain control characters"):
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
