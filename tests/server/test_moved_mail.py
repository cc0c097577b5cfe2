"""'X moved' notifications: one per turn of another seat, once it ends, to
each player who wants them, never to the mover, a resigned seat or a seat
the same change tells 'your turn'."""

from __future__ import annotations

from sqlalchemy import select

from pbem.models import Game, MovedMail, Outbox, User
from pbem.services.replay import engine_game
from pbem.services.resign import resign
from tests.server.conftest import drain
from tests.server.pipeline_helpers import (
    first_legal,
    judged,
    outbox_of,
    play_first_legal,
    send,
    start_game,
)


def moved_rows(session, game: Game) -> list[tuple[int, int, int, int]]:
    """(recipient seat, mover, first ply, last ply) of every 'moved' notification."""
    session.expire_all()
    rows = session.scalars(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "moved").order_by(Outbox.id)
    )
    return [
        (r.payload["seat"], r.payload["mover"], r.payload["first_ply"], r.payload["last_ply"])
        for r in rows
    ]


def preferring(session, users: list[User], choice: MovedMail) -> None:
    for user in users:
        session.get(User, user.id).moved_mail = choice
    session.commit()


def test_players_get_moved_mail_unless_they_chose_never(make_user):
    assert make_user("Ann").moved_mail == MovedMail.EACH


def test_no_moved_mail_for_players_who_chose_never(app, session, make_user):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    preferring(session, [ann, bob, cy], MovedMail.NEVER)
    game = start_game(app, session, "toy-pick", [ann, bob, cy])
    judged(app, send(app, session, game, 0, "pick 1").id)
    judged(app, send(app, session, game, 1, "pick 2").id)
    assert moved_rows(session, game) == []


def test_moved_mail_goes_to_each_other_waiting_seat_but_not_to_the_mover(app, session, make_user):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    preferring(session, [cy], MovedMail.NEVER)
    game = start_game(app, session, "toy-pick", [ann, bob, cy])
    judged(app, send(app, session, game, 0, "pick 1").id)
    assert moved_rows(session, game) == [(1, 0, 1, 1)]
    judged(app, send(app, session, game, 1, "pick 2").id)
    assert moved_rows(session, game)[1:] == [(0, 1, 2, 2)]


def test_seats_told_your_turn_by_the_same_change_get_no_moved_mail(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    judged(app, send(app, session, game, 0, "pick 1").id)
    judged(app, send(app, session, game, 1, "pick 2").id)  # ends the round: both act again
    assert moved_rows(session, game) == [(1, 0, 1, 1)]
    assert outbox_of(session, game)[-2:] == [("your_turn", 0), ("your_turn", 1)]


def test_a_submission_of_several_moves_is_one_moved_mail(app, session, make_user):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    game = start_game(app, session, "taluva", [ann, bob, cy])
    played = engine_game(game)
    turn = [first_legal(played, 0) for _ in range(2)]  # a tile, then a building
    assert judged(app, send(app, session, game, 0, "\n".join(turn)).id).status == "accepted"
    # Bob must act now and is told so; Cy waits and hears of both moves in one mail.
    assert moved_rows(session, game) == [(2, 0, 1, 2)]


def test_a_turn_sent_move_by_move_is_one_moved_mail_once_it_ends(app, session, make_user):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    game = start_game(app, session, "taluva", [ann, bob, cy])
    play_first_legal(app, session, game, 0)  # the tile: Ann's turn goes on
    assert moved_rows(session, game) == []
    play_first_legal(app, session, game, 0)  # the building ends it
    assert moved_rows(session, game) == [(2, 0, 1, 2)]


def test_bots_moves_are_announced_too(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob, "bot"])
    for position in (0, 0, 1, 1):  # tile and build of Ann, then of Bob
        play_first_legal(app, session, game, position)
    drain(app)  # the bot has played its whole turn as one submission
    from_bot = [row for row in moved_rows(session, game) if row[1] == 2]
    assert from_bot == [(1, 2, 5, 6)]  # Ann is told 'your turn' instead


def test_a_resigned_seat_gets_no_moved_mail(app, session, make_user):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    game = start_game(app, session, "toy-pick", [ann, bob, cy])
    resign(session, game.seats[0])
    session.commit()
    drain(app)  # the bot that took Ann's seat picks for her
    before = moved_rows(session, game)
    judged(app, send(app, session, game, 1, "pick 2").id)
    assert [row for row in moved_rows(session, game) if row not in before] == [(2, 1, 2, 2)]
