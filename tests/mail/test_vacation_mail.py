"""Vacation by mail: `vacation N` stops the player's clocks, `back` starts
them again, each answered by mail; refusals say why and change nothing."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from pbem.models import ClockStop, Seat
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl
from tests.mail.helpers import mail_to, reply, submit_by_smtp, text_of, turn_mail


def test_vacation_and_back_by_mail(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    for user in (ann, bob):
        user.quiet_start = user.quiet_end = None
    game = create_game(
        session,
        ann,
        "taluva",
        [SeatSpec(user=ann), SeatSpec(user=bob)],
        time_control=TimeControl(days_per_move=3),
    )
    session.commit()
    seat = game.seats[0]
    timeout = seat.timeout_at
    mail = turn_mail(rig, game, ann)
    assert "vacation N (your clocks stop in every game for N days), back" in text_of(mail)

    def send(body: str) -> str:
        """The answer to a reply of Ann's with this text."""
        row = submit_by_smtp(rig, reply(mail, ann.email, body), ann.email, str(mail["Reply-To"]))
        assert row.outcome == "answered" and row.submission_id is None
        return text_of(mail_to(rig, ann, "answer"))

    def stop_and_timeout() -> tuple[ClockStop, Seat]:
        session.expire_all()
        stop = session.scalar(select(ClockStop).where(ClockStop.user_id == ann.id))
        return stop, session.get(Seat, seat.id)

    started = send("vacation 7")
    assert "Your vacation has started: your clocks stop in every game until " in started
    assert "(in 7 days)" in started and "23 vacation days left this year" in started
    stop, seat = stop_and_timeout()
    assert stop.ended_at - stop.started_at == timedelta(days=7)
    assert seat.timeout_at == timeout + timedelta(days=7)

    refused = send("vacation 2")
    assert "No vacation was started: you are on vacation until " in refused and "already" in refused

    assert "Welcome back: your clocks run again in every game." in send("back")
    stop, seat = stop_and_timeout()
    assert stop.ended_at - stop.started_at < timedelta(minutes=5)
    assert seat.timeout_at == timeout + (stop.ended_at - stop.started_at)

    answer = send("back\nvacation 30 days\nvacation soon\nhelp")
    assert "Nothing was changed: you are not on vacation." in answer
    assert "No vacation was started: a vacation lasts 1 to 29 days" in answer
    assert "write the number of days after vacation, like vacation 7" in answer
    assert "vacation N   a vacation of N days from now" in answer  # the help
    stop, seat = stop_and_timeout()
    assert seat.timeout_at == timeout + (stop.ended_at - stop.started_at)
    assert len(session.scalars(select(ClockStop).where(ClockStop.user_id == ann.id)).all()) == 1
