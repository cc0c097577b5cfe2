"""The daily digest: a player who chose it gets no 'your turn' mail, and at
their hour one mail listing every game waiting for them with its deadline in
their zone; once a day, however many sweeps run, even at the same moment."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from sqlalchemy import select

from pbem.clock.digests import send_digests
from pbem.clock.sweep import sweep
from pbem.i18n.times import local_time
from pbem.mail.compose import compose
from pbem.models import Outbox, Seat, User
from pbem.services import accounts, notifications
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl
from tests.mail.helpers import text_of
from tests.server.conftest import drain
from tests.server.pipeline_helpers import send

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too

PRAGUE = "Europe/Prague"
# Tuesday 1 December 2026, 07:00 in Prague; Ann wants her digest at 09:00.
START = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
DIGEST_TIME = datetime(2026, 12, 1, 8, 5, tzinfo=UTC)


def mails(session, user: User, kind: str) -> list[Outbox]:
    session.expire_all()
    query = select(Outbox).where(Outbox.recipient_id == user.id, Outbox.kind == kind)
    return list(session.scalars(query))


def two_games_waiting_for(session, ann: User, bob: User) -> tuple[Seat, Seat]:
    """A game with a clock and one without; both wait for Ann and Bob (toy picks are
    made at once by every seat)."""
    clocked = create_game(
        session,
        ann,
        "toy-pick",
        [SeatSpec(user=ann), SeatSpec(user=bob)],
        time_control=TimeControl(days_per_move=2),
    )
    friendly = create_game(session, bob, "toy-pick", [SeatSpec(user=bob), SeatSpec(user=ann)])
    session.commit()
    return clocked.seats[0], friendly.seats[1]


def test_a_digest_player_gets_one_list_a_day_at_their_hour_and_no_turn_mails(
    app, session, make_user
):
    ann, bob = make_user("Ann", quiet_hours="22:00-08:00"), make_user("Bob")
    ann.time_zone, ann.digest_hour = PRAGUE, 9
    session.commit()
    with time_machine.travel(START, tick=False):
        clocked, friendly = two_games_waiting_for(session, ann, bob)
        assert mails(session, ann, notifications.YOUR_TURN) == []
        assert len(mails(session, bob, notifications.YOUR_TURN)) == 2  # Bob's are per turn
        assert sweep(session).digests == 0  # 07:00 in Prague: not yet
    with time_machine.travel(DIGEST_TIME, tick=False):
        assert sweep(session).digests == 1
        assert sweep(session).digests == 0  # once a day
        (row,) = mails(session, ann, notifications.DIGEST)
        assert (row.game_id, row.not_before) == (None, None)  # no one game; 09:05 is not quiet
        text = text_of(compose(session, row, app.config))
        # Due on Thursday at 07:00 in Prague, in the quiet hours: moved to their end.
        assert local_time(clocked.timeout_at, PRAGUE) == "Thu 3 Dec, 08:00 (in 47 hours)"
        first, second, *_ = text.split("\n\n")
        clocked_id, friendly_title = clocked.game.public_id, friendly.game.title
        clocked_title = clocked.game.title
        assert clocked_title and clocked_id not in clocked_title  # named by title, not id
        assert first.startswith(f"{clocked_title}, due Thu 3 Dec, 08:00 (in 47 hours): http")
        assert first.endswith(f"/games/{clocked_id}")
        assert second.startswith(f"{friendly_title}, no deadline: http")
        assert "/settings" in text
    with time_machine.travel(DIGEST_TIME + timedelta(days=1), tick=False):
        assert sweep(session).digests == 1  # the next day's
    assert mails(session, bob, notifications.DIGEST) == []  # Bob never asked for one
    session.expire_all()
    assert session.get(User, ann.id).digest_sent_on.isoformat() == "2026-12-02"


def test_two_sweeps_at_once_send_one_digest(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    ann.time_zone, ann.digest_hour = PRAGUE, 9
    session.commit()
    with time_machine.travel(START, tick=False):
        two_games_waiting_for(session, ann, bob)
    start = threading.Barrier(2)
    sent: list[int] = []

    def sweeper() -> None:
        with app.extensions["pbem.db"].session() as own:
            start.wait()
            sent.append(send_digests(own, DIGEST_TIME))

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(sent) == [0, 1]
    assert len(mails(session, ann, notifications.DIGEST)) == 1


def test_nothing_waiting_means_no_digest_that_day(session, make_user):
    ann = make_user("Ann")
    ann.time_zone, ann.digest_hour = PRAGUE, 9
    session.commit()
    assert send_digests(session, DIGEST_TIME) == 0
    assert mails(session, ann, notifications.DIGEST) == []
    session.expire_all()
    assert session.get(User, ann.id).digest_sent_on.isoformat() == "2026-12-01"


def test_a_digest_player_gets_no_mail_per_move_of_the_others(app, session, make_user):
    ann, bob, cat = make_user("Ann"), make_user("Bob"), make_user("Cat")
    ann.digest_hour = 9  # Cat keeps a mail per move
    game = create_game(
        session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob), SeatSpec(user=cat)]
    )
    session.commit()
    send(app, session, game, 1, "pick 1")  # Ann and Cat still owe their picks
    drain(app)
    assert mails(session, ann, notifications.MOVED) == []
    assert len(mails(session, cat, notifications.MOVED)) == 1


def test_an_hour_chosen_after_it_began_serves_today_at_once_and_once(session, make_user):
    """As docs/when-mail-comes.md says: at 14:20 Ann chooses 09:00, Bob 16:00;
    Ann's digest goes with the next sweep, Bob's at 16:00; Ann, changing to
    15:00 after hers came, gets no second one that day."""
    ann, bob = make_user("Ann"), make_user("Bob")
    for player in (ann, bob):
        player.time_zone = PRAGUE
    session.commit()
    chosen = datetime(2026, 12, 1, 13, 20, tzinfo=UTC)  # 14:20 in Prague
    with time_machine.travel(chosen, tick=False):
        two_games_waiting_for(session, ann, bob)
        accounts.update_settings(session, ann, digest_hour=9)
        accounts.update_settings(session, bob, digest_hour=16)
        session.commit()
        assert send_digests(session, chosen + timedelta(minutes=1)) == 1
        assert len(mails(session, ann, notifications.DIGEST)) == 1
        accounts.update_settings(session, session.get(User, ann.id), digest_hour=15)
        session.commit()
    assert send_digests(session, chosen + timedelta(minutes=45)) == 0  # 15:05 in Prague
    assert send_digests(session, chosen + timedelta(hours=1, minutes=45)) == 1  # 16:05: Bob's
    assert len(mails(session, ann, notifications.DIGEST)) == 1
    assert len(mails(session, bob, notifications.DIGEST)) == 1
