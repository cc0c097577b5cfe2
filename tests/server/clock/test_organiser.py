"""The organiser's actions through the API, on the real pipeline and clock:
who may use them, what each does to the clock and the seats, the events in
the history and the mails that go out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine
from sqlalchemy import select

from pbem.mail.commands import Reading, carry_out
from pbem.mail.compose import compose
from pbem.mail.unread_lines import Judge
from pbem.models import Game, OnTimeout, Outbox, Seat
from pbem.services import accounts, notifications
from pbem.services.deadlines import out_of_quiet_hours
from pbem.services.events import events_of
from pbem.services.games import SeatSpec, create_game
from pbem.services.replay import engine_game
from tests.server.clock.helpers import fresh, organised_game, swept
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import PALACE_TURN, judged, moves_of


def mails(session, game: Game, kind: str) -> list[Outbox]:
    session.expire_all()
    return list(
        session.scalars(
            select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == kind).order_by(Outbox.id)
        )
    )


def test_only_the_creator_may_organise(app, session, make_user, api, token_for):
    org, ann, bob, eve = (make_user(n) for n in ("Org", "Ann", "Bob", "Eve"))
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)])
    game_id = game.public_id
    assert api.call("pauseGame", token_for(eve), game_id=game_id).status_code == 404
    refused = api.call("pauseGame", token_for(ann), game_id=game_id)
    assert refused.status_code == 403 and "organiser" in refused.get_json()["message"]
    assert api.call("abandonGame", token_for(bob), game_id=game_id).status_code == 403
    organiser = token_for(org)
    too_long = {"position": 0, "days": 31}
    assert api.call("extendDeadline", organiser, too_long, game_id=game_id).status_code == 422
    not_asked = api.call("extendDeadline", organiser, {"position": 1, "days": 1}, game_id=game_id)
    assert not_asked.status_code == 409 and "not asked to move" in not_asked.get_json()["message"]
    assert api.call("resumeGame", organiser, game_id=game_id).status_code == 409
    assert events_of(session, game) == []
    assert fresh(session, Game, game.id).paused_at is None
    assert api.call("getGame", organiser, game_id=game_id).get_json()["organiser"] is True


def test_a_wait_timeout_then_an_extension_then_a_later_timeout(
    app,
    session,
    make_user,
    api,
    token_for,
):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(
        app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)], on_timeout=OnTimeout.WAIT
    )
    first = game.seats[0].timeout_at
    with time_machine.travel(first + timedelta(minutes=1), tick=False):
        assert swept(session, game) == ["timeout"]
        answer = api.call(
            "extendDeadline", token_for(org), {"position": 0, "days": 2}, game_id=game.public_id
        )
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["event"]["kind"] == "extend"
    assert "gave Ann 2 days more" in answer.get_json()["event"]["text"]
    seat = fresh(session, Seat, game.seats[0].id)
    assert seat.timed_out_at is None and seat.timeout_at == first + timedelta(days=2)
    with time_machine.travel(first + timedelta(days=1), tick=False):
        assert swept(session, game) == ["timeout", "extend"]
    with time_machine.travel(first + timedelta(days=2, minutes=1), tick=False):
        # the extension ran out: the timeout strikes again
        assert swept(session, game) == ["timeout", "extend", "timeout"]
    assert [m.recipient_id for m in mails(session, game, "organiser_timeout")] == [org.id] * 2
    listed = api.call("listEvents", token_for(org), game_id=game.public_id).get_json()
    assert [(e["kind"], e["seat"], e["ply"]) for e in listed] == [
        ("timeout", 0, 0),
        ("extend", 0, 0),
        ("timeout", 0, 0),
    ]
    assert (
        api.call("listEvents", token_for(make_user("Eve")), game_id=game.public_id).status_code
        == 404
    )
    told = mails(session, game, notifications.ORGANISER_EVENT)
    assert sorted(m.recipient_id for m in told) == sorted([ann.id, bob.id])
    with app.app_context():
        text = compose(session, told[0], app.config).get_body(("plain",)).get_content()
    assert "gave Ann 2 days more for this move" in text


def test_a_paused_game_times_nobody_out_and_resuming_moves_the_deadline_on(
    app,
    session,
    make_user,
    api,
    token_for,
):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)])
    timeout = game.seats[0].timeout_at
    paused = game.seats[0].asked_at + timedelta(hours=6)
    organiser = token_for(org)
    with time_machine.travel(paused, tick=False):
        answer = api.call("pauseGame", organiser, game_id=game.public_id)
        assert answer.status_code == 200 and answer.get_json()["game"]["paused_at"]
        assert api.call("pauseGame", organiser, game_id=game.public_id).status_code == 409
    assert fresh(session, Seat, game.seats[0].id).timeout_at is None
    with time_machine.travel(timeout + timedelta(days=2), tick=False):
        assert swept(session, game) == ["pause"]
    seat = fresh(session, Seat, game.seats[0].id)
    assert seat.timed_out_at is None and seat.reminded_at is None
    with time_machine.travel(paused + timedelta(days=3), tick=False):
        answer = api.call("resumeGame", organiser, game_id=game.public_id)
    assert answer.status_code == 200 and answer.get_json()["game"]["paused_at"] is None
    assert "after a pause of 3 days" in answer.get_json()["event"]["text"]
    assert fresh(session, Seat, game.seats[0].id).timeout_at == timeout + timedelta(days=3)
    with time_machine.travel(timeout + timedelta(days=3) - timedelta(minutes=1), tick=False):
        assert swept(session, game) == ["pause", "resume"]
    with time_machine.travel(timeout + timedelta(days=3, minutes=1), tick=False):
        assert swept(session, game) == ["pause", "resume", "timeout"]


def test_a_game_whose_clock_keeps_weekends_off_pauses_and_resumes(
    app,
    session,
    make_user,
    api,
    token_for,
):
    """The usual club clock: the pause stops the clock over the weekend it
    spans, and resuming gives back the running time that was left."""
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    thursday = datetime(2026, 3, 5, 9, tzinfo=UTC)
    with time_machine.travel(thursday, tick=False):
        game = organised_game(
            app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)], weekends_off=True
        )
    assert game.seats[0].timeout_at == thursday + timedelta(days=1)
    organiser = token_for(org)
    with time_machine.travel(thursday + timedelta(hours=6), tick=False):
        answer = api.call("pauseGame", organiser, game_id=game.public_id)
    assert answer.status_code == 200, answer.get_json()
    assert fresh(session, Seat, game.seats[0].id).timeout_at is None
    with time_machine.travel(thursday + timedelta(days=5, hours=6), tick=False):  # Tuesday
        answer = api.call("resumeGame", organiser, game_id=game.public_id)
    assert answer.status_code == 200, answer.get_json()
    # 18 of the day's hours were left: Tuesday 15:00 + 18 hours.
    assert fresh(session, Seat, game.seats[0].id).timeout_at == thursday + timedelta(days=6)


def test_a_seat_handed_to_a_bot_is_played_by_it(app, session, make_user, api, token_for):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)])
    organiser = token_for(org)
    answer = api.call("handSeatToBot", organiser, {"position": 0}, game_id=game.public_id)
    assert answer.status_code == 200 and answer.get_json()["game"]["seats"][0]["kind"] == "bot"
    wait_for(lambda: moves_of(session, game), what="the bot to play the seat")
    seat = fresh(session, Seat, game.seats[0].id)
    assert seat.bot == "random" and seat.resigned_at is not None and seat.timeout_at is None
    assert [e.kind for e in events_of(session, game)] == ["bot"]
    told = mails(session, game, notifications.ORGANISER_EVENT)
    assert sorted(m.recipient_id for m in told) == sorted([ann.id, bob.id])  # Ann before leaving
    again = api.call("handSeatToBot", organiser, {"position": 0}, game_id=game.public_id)
    assert again.status_code == 409


def test_a_replacing_player_gets_the_seat_its_hand_and_its_turn(
    app,
    session,
    make_user,
    api,
    token_for,
):
    org, ann = make_user("Org"), make_user("Ann")
    game = organised_game(
        app, session, org, [SeatSpec(bot="random"), SeatSpec(user=ann)], "java", days_per_move=3
    )
    old_token, asked = game.seats[1].token, game.seats[1].asked_at
    ann_token, game_id = token_for(ann), game.public_id
    assert api.call("getSeatView", ann_token, game_id=game_id, position=1).status_code == 200
    bad = {"position": 1, "email": "not an address"}
    assert api.call("replacePlayer", token_for(org), bad, game_id=game_id).status_code == 422
    with time_machine.travel(asked + timedelta(days=1), tick=False):
        answer = api.call(
            "replacePlayer",
            token_for(org),
            {"position": 1, "email": "Carl.New@Example.org"},
            game_id=game_id,
        )
    assert answer.status_code == 200, answer.get_json()
    carl = accounts.user_by_email(session, "carl.new@example.org")
    seat = fresh(session, Seat, game.seats[1].id)
    assert seat.user_id == carl.id and seat.name == carl.name and seat.token != old_token
    assert seat.asked_at == asked + timedelta(days=1)  # the clock restarts for Carl
    assert seat.timeout_at == out_of_quiet_hours(seat.asked_at + timedelta(days=3), carl)

    carl_token = token_for(carl)
    view = api.call("getSeatView", carl_token, game_id=game_id, position=1).get_json()
    assert view["view"]["state"]["hand"] == ["D", "MP", "DP"]
    assert [e["kind"] for e in view["events"]] == ["replace"]
    turn = {"moves": list(PALACE_TURN)}
    sent = api.call("submitMoves", carl_token, turn, game_id=game_id, position=1)
    assert sent.status_code == 202
    assert judged(app, sent.get_json()["id"]).status == "accepted"
    assert api.call("getSeatView", ann_token, game_id=game_id, position=1).status_code == 404
    assert api.call("getGame", ann_token, game_id=game_id).status_code == 404

    invite = mails(session, game, notifications.INVITE)
    notice = mails(session, game, notifications.ORGANISER_NOTICE)
    assert [m.recipient_id for m in invite] == [carl.id]
    assert [m.recipient_id for m in notice] == [ann.id]
    assert carl.id in [m.recipient_id for m in mails(session, game, notifications.YOUR_TURN)]
    with app.app_context():
        invitation = compose(session, invite[0], app.config).get_body(("plain",)).get_content()
        goodbye = compose(session, notice[0], app.config).get_body(("plain",)).get_content()
    assert "take over the seat of Ann" in invitation and "/take-over/" in invitation
    assert "You no longer play in this game" in goodbye


def test_an_abandoned_game_is_finished_without_a_result(app, session, make_user, api, token_for):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)])
    answer = api.call("abandonGame", token_for(org), game_id=game.public_id)
    assert answer.status_code == 200
    shown = answer.get_json()["game"]
    assert shown["status"] == "finished" and shown["abandoned_at"] and shown["to_act"] == []
    seats = fresh(session, Game, game.id).seats
    assert all(s.asked_at is None and s.timeout_at is None for s in seats)
    ann_token = token_for(ann)
    listed = api.call("listGames", ann_token).get_json()
    assert [g["status"] for g in listed if g["id"] == game.public_id] == ["finished"]
    view = api.call("getSeatView", ann_token, game_id=game.public_id, position=0).get_json()
    assert view["view"]["result"] is None and [e["kind"] for e in view["events"]] == ["abandon"]
    assert api.call("abandonGame", token_for(org), game_id=game.public_id).status_code == 409

    told = mails(session, game, notifications.ORGANISER_EVENT)
    assert sorted(m.recipient_id for m in told) == sorted([ann.id, bob.id])
    with app.app_context():
        text = compose(session, told[0], app.config).get_body(("plain",)).get_content()
    assert "abandoned the game: it ends without a result" in text and "Your turn" not in text

    legal = api.call("getLegalMoves", ann_token, game_id=game.public_id, position=0).get_json()
    assert legal["moves"] == []
    first = engine_game(fresh(session, Game, game.id)).state
    late = {"moves": [first.format_move(first.legal_moves(0)[0])]}
    sent = api.call("submitMoves", ann_token, late, game_id=game.public_id, position=0)
    assert sent.status_code == 409 and "abandoned" in sent.get_json()["message"]
    assert moves_of(session, game) == []


def test_abandoning_a_game_that_waits_for_players_tells_those_waiting(
    app,
    session,
    make_user,
    api,
    token_for,
):
    org, ann = make_user("Org"), make_user("Ann")
    game = create_game(session, org, "taluva", [SeatSpec(user=ann), SeatSpec()])
    session.commit()
    assert api.call("abandonGame", token_for(org), game_id=game.public_id).status_code == 200
    assert fresh(session, Game, game.id).status == "finished"
    notice = mails(session, game, notifications.ORGANISER_NOTICE)
    assert [m.recipient_id for m in notice] == [ann.id]
    with app.app_context():
        message = compose(session, notice[0], app.config)
    assert "game abandoned" in message["Subject"]


def test_the_mail_history_shows_events_after_their_move(app, session, make_user):
    org, ann, bob = make_user("Org"), make_user("Ann"), make_user("Bob")
    game = organised_game(
        app, session, org, [SeatSpec(user=ann), SeatSpec(user=bob)], on_timeout=OnTimeout.WAIT
    )
    with time_machine.travel(game.seats[0].timeout_at + timedelta(minutes=1), tick=False):
        assert swept(session, game) == ["timeout"]
    game = fresh(session, Game, game.id)
    with app.app_context():
        answer = carry_out(
            session, Judge(game.seats[1]), Reading(commands=[("history", "")]), None, 500
        )
    assert "(timeout: Ann ran out of time." in answer.paragraphs[0]


def test_a_game_without_a_clock_has_nothing_to_pause_or_extend(
    app,
    session,
    make_user,
    api,
    token_for,
):
    org, ann = make_user("Org"), make_user("Ann")
    game = create_game(session, org, "taluva", [SeatSpec(user=org), SeatSpec(user=ann)])
    session.commit()
    organiser = token_for(org)
    paused = api.call("pauseGame", organiser, game_id=game.public_id)
    assert paused.status_code == 409 and "no clock" in paused.get_json()["message"]
    more = api.call("extendDeadline", organiser, {"position": 0, "days": 1}, game_id=game.public_id)
    assert more.status_code == 409 and "no clock" in more.get_json()["message"]
    assert events_of(session, game) == []
