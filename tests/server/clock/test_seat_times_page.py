"""The seat list of the game page tells each player's clock in the reader's
zone: their time of day, since when the game waits for them, their deadline
and bank, and who is on vacation; watchers see the deadlines, not the rest."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import time_machine

from pbem.clock.sweep import sweep
from pbem.models import ClockStop, OnTimeout
from pbem.services import accounts, vacation
from pbem.services.games import SeatSpec, create_game
from pbem.services.time_control import TimeControl

MONDAY = datetime(2037, 11, 16, 15, 0, tzinfo=UTC)  # 10:00 in New York, 00:00 Tuesday in Tokyo
READ_AT = MONDAY + timedelta(minutes=30, seconds=5)


def chips(page: str) -> list[str]:
    """Each seat's chip as text, tags stripped and spaces joined."""
    items = re.findall(
        r"<li[^>]*>(.*?)</li>", page.split('<ul class="seats">')[1].split("</ul>")[0], re.S
    )
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_players_read_every_time_in_their_own_zone(app, session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    accounts.update_settings(session, ann, time_zone="America/New_York")
    accounts.update_settings(session, bob, time_zone="Asia/Tokyo")
    for user in (ann, bob):
        user.quiet_start = user.quiet_end = None
    with time_machine.travel(MONDAY, tick=False):
        game = create_game(
            session,
            ann,
            "taluva",
            [SeatSpec(user=ann), SeatSpec(user=bob)],
            time_control=TimeControl(days_per_move=2, bank_days=1, on_timeout=OnTimeout.WAIT),
        )
        vacation.start(session, bob, 7, 30, MONDAY)
        session.commit()
    url = f"/games/{game.public_id}"

    with time_machine.travel(READ_AT, tick=True):
        ann_sees = chips(signed_in_as(ann).get(url).get_data(as_text=True))
        bob_sees = chips(signed_in_as(bob).get(url).get_data(as_text=True))
        watcher_sees = chips(app.test_client().get(url + "/watch").get_data(as_text=True))
        ann_home = signed_in_as(ann).get("/").get_data(as_text=True)
        bob_home = signed_in_as(bob).get("/").get_data(as_text=True)

    # "My games" gives the reader's own deadline, in their zone.
    assert "deadline Thu 19 Nov, 10:00 (in 3 days)" in ann_home
    assert "deadline" not in bob_home  # Bob owes nothing
    ann_chip, bob_chip = ann_sees
    assert "waiting since Mon 16 Nov, 10:00 (30 minutes ago)" in ann_chip
    assert "deadline Thu 19 Nov, 10:00 (in 3 days)" in ann_chip and "bank left: 1 day" in ann_chip
    assert "their time" not in ann_chip  # her own seat
    assert "on vacation until Mon 23 Nov, 10:00 (in 7 days)" in bob_chip
    assert "Tue 00:30 their time" in bob_chip and "waiting since" not in bob_chip

    assert "waiting since Tue 17 Nov, 00:00 (30 minutes ago)" in bob_sees[0]
    assert "Mon 10:30 their time" in bob_sees[0]
    assert "on vacation until Tue 24 Nov, 00:00 (in 7 days)" in bob_sees[1]

    watching, watched_bob = watcher_sees
    assert "deadline Thu 19 Nov, 15:00 UTC (in 3 days)" in watching
    assert "waiting since Mon 16 Nov, 15:00 UTC (30 minutes ago)" in watching
    assert "their time" not in " ".join(watcher_sees) and "vacation" not in watched_bob

    with time_machine.travel(MONDAY + timedelta(days=2, hours=6, seconds=30), tick=True):
        late = chips(signed_in_as(bob).get(url).get_data(as_text=True))[0]
    assert "deadline Fri 20 Nov, 00:00 (in 18 hours), drawing on the bank" in late
    assert "bank left: 17 hours 59 minutes" in late

    out_of_time = MONDAY + timedelta(days=3, minutes=1)
    sweep(session, out_of_time)  # the organiser decides: the seat waits on
    with time_machine.travel(out_of_time, tick=True):
        late = chips(signed_in_as(bob).get(url).get_data(as_text=True))[0]
    assert "ran out of time" in late and "deadline" not in late and "bank left: nothing" in late


def test_a_game_without_a_clock_shows_only_since_when_it_waits(session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    with time_machine.travel(MONDAY, tick=False):
        game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
        session.commit()
    with time_machine.travel(READ_AT, tick=True):
        ann_chip, bob_chip = chips(
            signed_in_as(bob).get(f"/games/{game.public_id}").get_data(as_text=True)
        )
    assert "waiting since Mon 16 Nov, 15:00 (30 minutes ago)" in ann_chip
    assert "deadline" not in ann_chip and "bank" not in ann_chip
    assert "their time" not in bob_chip and "15:30 their time" in ann_chip


def test_another_players_day_is_named_in_the_readers_language(session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    accounts.update_settings(session, ann, time_zone="America/New_York")
    accounts.update_settings(session, bob, time_zone="Asia/Tokyo")
    ann.language, bob.language = "fr", "cs"
    with time_machine.travel(MONDAY, tick=False):
        game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
        session.commit()
    url = f"/games/{game.public_id}"
    with time_machine.travel(READ_AT, tick=True):
        _ann, bob_to_ann = chips(signed_in_as(ann).get(url).get_data(as_text=True))
        ann_to_bob, _bob = chips(signed_in_as(bob).get(url).get_data(as_text=True))
    assert "mar. 00:30 heure locale" in bob_to_ann  # Tuesday in Tokyo
    assert "po 10:30 místního času" in ann_to_bob  # Monday in New York


def test_a_vacation_without_an_end_is_told_in_the_readers_language(
    session, make_user, signed_in_as
):
    ann, bob = make_user("Ann"), make_user("Bob")
    ann.language = "fr"
    with time_machine.travel(MONDAY, tick=False):
        game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
        session.add(ClockStop(user_id=bob.id, started_at=MONDAY, ended_at=None))
        session.commit()
    with time_machine.travel(READ_AT, tick=True):
        _ann, bob_chip = chips(
            signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True)
        )
    assert "en vacances jusqu'à nouvel ordre" in bob_chip
