"""Quiet hours over real SMTP: game mail queued at 23:00 in Prague waits in
the outbox and the beat's outbox sweep sends it once they end at 08:00, on
the night the clocks go forward; a sign-in link, and mail to a player
without quiet hours, go out at once."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine
from sqlalchemy import select

from pbem.mail import send
from pbem.mail.tasks import requeue_outbox
from pbem.models import Outbox, OutboxStatus
from pbem.services import chat, notifications
from tests.mail.helpers import sent_now, text_of
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import start_game

# Saturday 27 March 2027, 23:00 in Prague (UTC+1). That night Prague moves to
# summer time, so the quiet hours end at 08:00 UTC+2: 06:00 UTC, not 07:00.
LATE = datetime(2027, 3, 27, 22, 0, tzinfo=UTC)
QUIET_END = datetime(2027, 3, 28, 6, 0, tzinfo=UTC)


def to(user, subject_end: str = ""):  # type: ignore[no-untyped-def]
    return lambda m: user.email in str(m["To"]) and str(m["Subject"]).endswith(subject_end)


def test_game_mail_in_quiet_hours_waits_for_their_end_across_the_clock_change(
    rig, session, make_user
):
    ann, bob = make_user("Ann", quiet_hours="22:00-08:00"), make_user("Bob")  # Bob has none
    ann.time_zone = bob.time_zone = "Europe/Prague"
    session.commit()
    max_attempts = rig.app.config["PBEM_MAIL_MAX_ATTEMPTS"]
    with time_machine.travel(LATE, tick=True):
        game = start_game(rig.app, session, "taluva", [ann, bob])  # Ann's turn
        chat.post(session, game.seats[0], "Good luck!", "web", 500)
        notifications.notify_sign_in(session, ann, "http://pbem.test/sign-in/abc")
        session.commit()
        assert "Good luck!" in text_of(rig.capture.take(to(bob)))  # Bob has no quiet hours
        assert "sign-in/abc" in text_of(rig.capture.take(to(ann, "Sign in to pbem")))
        turn = session.scalar(
            select(Outbox).where(Outbox.game_id == game.id, Outbox.recipient_id == ann.id)
        )
        assert turn.kind == notifications.YOUR_TURN and turn.not_before == QUIET_END
        assert sent_now(session, turn.id, rig.app.config) is False  # the sender leaves it
        assert turn.id not in send.due_rows(session, 0, max_attempts)
        session.refresh(turn)
        assert (turn.status, turn.attempts) == (OutboxStatus.PENDING, 0)
    with time_machine.travel(QUIET_END.replace(minute=1), tick=True):
        with rig.app.app_context():
            assert requeue_outbox() >= 1  # the beat's sweep hands it on now
        mail = rig.capture.take(to(ann, "your turn"))
        assert str(mail["X-Pbem-Game"]) == game.public_id

        def sent() -> Outbox | None:
            session.refresh(turn)
            return turn if turn.status == OutboxStatus.SENT else None

        assert wait_for(sent, what="the row marked sent").sent_at >= QUIET_END
