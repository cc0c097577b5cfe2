"""Quiet hours over real SMTP: game mail queued at 23:00 in Prague waits in
the outbox and the beat's outbox sweep sends it once they end at 08:00, on
the night the clocks go forward; a sign-in link, and mail to a player
without quiet hours, go out at once. At their end the player gets one mail
per game as it stands then, and new quiet hours re-time what waits at once."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine
from sqlalchemy import select

from pbem.mail import send
from pbem.models import MovedMail, Outbox, OutboxStatus
from pbem.services import accounts, chat, notifications, organiser
from pbem.task_names import REQUEUE_OUTBOX
from tests.mail.conftest import DOMAIN
from tests.mail.helpers import board_png, held_for, listed_under, release, sent_now, text_of, to
from tests.server.conftest import drain, run_task, wait_for
from tests.server.pipeline_helpers import play_a_turn, start_game

# Saturday 27 March 2027, 23:00 in Prague (UTC+1). That night Prague moves to
# summer time, so the quiet hours end at 08:00 UTC+2: 06:00 UTC, not 07:00.
LATE = datetime(2027, 3, 27, 22, 0, tzinfo=UTC)
QUIET_END = datetime(2027, 3, 28, 6, 0, tzinfo=UTC)


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
        notifications.notify_sign_in(session, ann, "http://pbem.test/sign-in/abc", None)
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
        assert run_task(rig.app, REQUEUE_OUTBOX) >= 1  # the beat's sweep hands it on now
        mail = rig.capture.take(to(ann, "your turn"))
        assert str(mail["X-Pbem-Game"]) == game.public_id

        def sent() -> Outbox | None:
            session.refresh(turn)
            return turn if turn.status == OutboxStatus.SENT else None

        assert wait_for(sent, what="the row marked sent").sent_at >= QUIET_END


# (ply, who) of the moves Ann has not heard of when her quiet hours end.
FOLDED_NEWS = [(3, "Bob"), (4, "Bob"), (5, "Cy"), (6, "Cy"), (9, "Bob"), (10, "Bob")]


def test_held_turns_and_moves_fold_into_one_mail_about_the_game_as_it_stands(
    rig, session, make_user
):
    ann = make_user("Ann", quiet_hours="22:00-08:00")
    bob, cy = make_user("Bob"), make_user("Cy")
    ann.time_zone, ann.moved_mail = "Europe/Prague", MovedMail.EACH
    session.commit()
    with time_machine.travel(LATE, tick=True):
        game = start_game(rig.app, session, "taluva", [ann, bob, cy])
        for position in (0, 1, 2, 0, 1):  # Ann plays on the page in her quiet hours
            play_a_turn(rig.app, session, game, position)
        held = held_for(session, ann, game)
        kinds = [row.kind for row in held]
        assert kinds.count("your_turn") == 2 and "moved" in kinds and len(held) >= 4
        assert all(row.not_before == QUIET_END for row in held)
    with time_machine.travel(QUIET_END.replace(minute=1), tick=True):
        release(rig)
        mail = rig.capture.take(to(ann))
        assert str(mail["Subject"]) == "Taluva, Ann's game, move 11: since you last heard"
        news = listed_under(mail, lambda line: line == "Since you last heard:")
        movers = [line.split(":")[0].split(". ") for line in news]
        plies = [[str(ply), name] for ply, name in FOLDED_NEWS]
        assert movers == plies  # the others' moves since her last mail, hers left out
        assert "Waiting for Cy." in text_of(mail) and board_png(mail) is not None
        wait_for(lambda: held_for(session, ann, game)[-1].status == OutboxStatus.SENT)
        statuses = [row.status for row in held_for(session, ann, game)]
        assert statuses == [OutboxStatus.DROPPED] * (len(held) - 1) + [OutboxStatus.SENT]
        drain(rig.app)  # the pass that sent it is over: a second mail would be out
    assert not [m for m in rig.capture.messages if ann.email in str(m["To"])]


def test_a_turn_mail_written_after_the_game_ended_names_no_empty_wait(rig, session, make_user):
    ann, bob = make_user("Ann", quiet_hours="22:00-08:00"), make_user("Bob")
    ann.time_zone = "Europe/Prague"
    session.commit()
    with time_machine.travel(LATE, tick=True):
        game = start_game(rig.app, session, "taluva", [bob, ann])
        play_a_turn(rig.app, session, game, 0)  # Ann's turn now, told while her mail is held
        organiser.abandon(session, bob, game.public_id)
        session.commit()
        late_turn = notifications.queue_notice(
            session,
            notifications.YOUR_TURN,
            {"game": game.public_id, "seat": 0, "ply": 2},
            recipient=bob,
            game_id=game.id,
        )
        session.commit()
        ending = f".{late_turn.id}@{DOMAIN}>"
        late = rig.capture.take(lambda m: str(m["Message-ID"]).endswith(ending))
        assert str(late["Subject"]) == "Taluva, Bob's game, move 3: game over"
    with time_machine.travel(QUIET_END.replace(minute=1), tick=True):
        release(rig)
        turn = rig.capture.take(to(ann, "game over"))  # her held 'your turn', as it stands
        assert "abandoned" in text_of(turn) and "with your moves" not in text_of(turn)


def test_changing_or_ending_quiet_hours_re_times_what_is_held_at_once(rig, session, make_user):
    ann, bob = make_user("Ann", quiet_hours="22:00-08:00"), make_user("Bob")
    ann.time_zone = "Europe/Prague"
    session.commit()
    with time_machine.travel(LATE, tick=True):  # 23:00 in Prague
        game = start_game(rig.app, session, "taluva", [ann, bob])
        (turn,) = held_for(session, ann, game)
        assert turn.not_before == QUIET_END
        accounts.update_settings(session, ann, quiet_hours="22:00-23:30")
        session.commit()
        session.refresh(turn)
        assert turn.not_before == datetime(2027, 3, 27, 22, 30, tzinfo=UTC)
        accounts.update_settings(session, ann, quiet_hours=None)
        session.commit()
        session.refresh(turn)
        assert turn.not_before <= datetime.now(UTC)
        release(rig)
        assert str(rig.capture.take(to(ann))["Subject"]).endswith("your turn")
