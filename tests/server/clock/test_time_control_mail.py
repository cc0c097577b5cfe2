"""Every game mail names the game's clock, and a player who owes a decision
reads when it times out, in their own zone, and the bank left."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.i18n.times import local_time
from pbem.mail.compose import compose
from pbem.models import ClockStop, Outbox, User, utcnow
from pbem.services import notifications
from pbem.services.deadlines import recompute_user
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl
from tests.mail.helpers import text_of

CLOCK = "Time control: 2 days per move, bank 5 days; on timeout a bot plays that move."


def players(make_user, session) -> tuple[User, User]:
    ann, bob = make_user("Ann"), make_user("Bob")
    ann.time_zone, bob.time_zone = "Europe/Prague", "America/New_York"
    ann.quiet_start = ann.quiet_end = None
    session.commit()
    return ann, bob


def mail_to(app, session, user: User, game_id: int, kind: str) -> str:
    row = session.scalar(
        select(Outbox).where(
            Outbox.game_id == game_id, Outbox.recipient_id == user.id, Outbox.kind == kind
        )
    )
    return text_of(compose(session, row, app.config))


def test_your_turn_mail_gives_the_deadline_in_the_players_zone_and_the_bank(
    app, session, make_user
):
    ann, bob = players(make_user, session)
    game = create_game(
        session,
        ann,
        "taluva",
        [SeatSpec(user=ann), SeatSpec(user=bob)],
        time_control=TimeControl(days_per_move=2, bank_days=5),
    )
    session.commit()
    seat = game.seats[0]
    text = mail_to(app, session, ann, game.id, notifications.YOUR_TURN)
    assert CLOCK in text
    assert f"Your deadline: {local_time(seat.timeout_at, 'Europe/Prague')}." in text
    own_days_end = local_time(seat.deadline, "Europe/Prague")
    assert f"Bank left: 5 days, drawn on from {own_days_end}." in text

    # Bob owes nothing now: he reads the clock, and no deadline.
    notifications.notify_chat(session, seat, [game.seats[1]], "good luck")
    session.commit()
    chat = mail_to(app, session, bob, game.id, notifications.CHAT)
    assert CLOCK in chat and "Your deadline" not in chat and "Bank left" not in chat


def test_a_mail_about_a_game_without_a_clock_says_nothing_of_clocks(app, session, make_user):
    ann, bob = players(make_user, session)
    game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
    session.commit()
    text = mail_to(app, session, ann, game.id, notifications.YOUR_TURN)
    assert "Your turn" in text
    assert "Time control" not in text and "deadline" not in text


def test_once_timed_out_a_seat_that_waits_for_the_organiser_has_no_deadline_to_read(
    app, session, make_user
):
    ann, bob = players(make_user, session)
    game = create_game(
        session,
        ann,
        "taluva",
        [SeatSpec(user=ann), SeatSpec(user=bob)],
        time_control=TimeControl(days_per_move=1, on_timeout="wait"),
    )
    session.commit()
    with time_machine.travel(game.seats[0].timeout_at + timedelta(minutes=1), tick=True):
        assert sweep(session).timeouts == 1
        text = mail_to(app, session, ann, game.id, notifications.TIMEOUT)
    assert "Timeout: You ran out of time. The game waits for its organiser to decide." in text
    assert "Time control: 1 day per move; on timeout the organiser decides." in text
    assert "Your deadline" not in text


def test_a_player_on_vacation_reads_that_their_clock_is_stopped(app, session, make_user):
    ann, bob = players(make_user, session)
    game = create_game(
        session,
        ann,
        "taluva",
        [SeatSpec(user=ann), SeatSpec(user=bob)],
        time_control=TimeControl(days_per_move=3),
    )
    session.add(ClockStop(user_id=ann.id, started_at=utcnow()))  # not ended yet
    recompute_user(session, ann)
    session.commit()
    assert game.seats[0].timeout_at is None
    text = mail_to(app, session, ann, game.id, notifications.YOUR_TURN)
    assert "Your clock is stopped for now (a vacation or a paused game)." in text
    assert "Your deadline" not in text
