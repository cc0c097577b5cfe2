"""Bots at levels on the server: stand-ins for absent players play at the
game's (or the league's) stand-in level, every bot thinks on the bots' own
queue, and a person's turn never waits behind a thinking bot.

The levels are reproducible (engine.bots.decision_key), so what a stand-in
played is checked against what the level itself chooses at that position."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
import time_machine
from celery import shared_task
from celery.signals import task_prerun
from flask import Flask
from sqlalchemy import select

from engine.games.java.tiles import ACTION_TOKENS
from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.leagues.withdrawal import withdraw
from pbem.mail.compose import compose
from pbem.models import Game, OnTimeout, Outbox, Seat, Submission, SubmissionStatus, utcnow
from pbem.services import notifications
from pbem.services.bot_thinking import think
from pbem.services.bots import bot_turn
from pbem.services.replay import engine_game
from pbem.services.resign import resign
from pbem.services.time_control import TimeControl
from pbem.services.turns import TurnRefused, accept_turn
from pbem.task_names import THINK_BOT
from tests.mail.helpers import text_of
from tests.server.clock.helpers import clocked_game, moves_by_channel, player, sweep_now
from tests.server.conftest import drain, wait_for
from tests.server.pipeline_helpers import first_legal, judged, play_a_turn, send, start_game

STAND_IN = "easy"  # the quickest level that is not random: a level chosen, not the default
HOLD_BOTS = "tests.hold_the_bots_worker"
_held = threading.Event()


@shared_task(name=HOLD_BOTS)
def hold_the_bots_worker() -> None:
    """Keeps the bots' worker busy until the test lets go (the embedded
    workers run in this process)."""
    _held.wait(60)


@pytest.fixture
def thoughts(app: Flask) -> Iterator[list[tuple[int, str]]]:
    """(seat id, queue) of every bot's think the workers start."""
    seen: list[tuple[int, str]] = []

    def record(task: object = None, args: tuple = (), **_: object) -> None:
        if getattr(task, "name", None) == THINK_BOT:
            seen.append((args[0], task.request.delivery_info["routing_key"]))

    task_prerun.connect(record, weak=False)
    yield seen
    task_prerun.disconnect(record)


def expected_moves(game: Game, position: int, level: str, *, stand_in: bool) -> list[str]:
    """What a bot of `level` plays for the seat in the game as it is now."""
    return bot_turn(engine_game(game), position, level, stand_in=stand_in)


def thought_on_the_bots_queue(app: Flask, thoughts: list[tuple[int, str]], seat: Seat) -> None:
    assert (seat.id, app.config["PBEM_BOT_QUEUE"]) in thoughts
    assert {queue for _, queue in thoughts} == {app.config["PBEM_BOT_QUEUE"]}


def test_a_timeout_is_played_by_the_games_stand_in_level(app, session, make_user, thoughts):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    game = clocked_game(
        app, session, "taluva", [ann, bob], TimeControl(days_per_move=1, on_timeout=OnTimeout.BOT)
    )
    game.stand_in = STAND_IN
    session.commit()
    late = game.seats[0]
    assert game.to_act == [0]
    expected = expected_moves(game, 0, STAND_IN, stand_in=True)

    with time_machine.travel(late.timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)

    assert [(p, channel, text) for p, channel, text in moves_by_channel(session, game)] == [
        (0, "clock", text) for text in expected
    ]
    session.refresh(late)
    assert late.bot is None and late.user_id == ann.id and late.bot_asked_at is None
    thought_on_the_bots_queue(app, thoughts, late)


def test_a_java_stand_in_keeps_the_late_players_action_tokens(app, session, make_user, thoughts):
    ann, bob = player(make_user, "Ann"), player(make_user, "Bob")
    clock = TimeControl(days_per_move=1, on_timeout=OnTimeout.BOT)
    game = clocked_game(app, session, "java", [ann, bob], clock)
    game.stand_in = "medium"
    session.commit()
    late = next(seat for seat in game.seats if seat.position in game.to_act)
    assert "token" in expected_moves(game, late.position, "medium", stand_in=False)
    expected = expected_moves(game, late.position, "medium", stand_in=True)

    with time_machine.travel(late.timeout_at + timedelta(minutes=1), tick=True):
        sweep_now(app, session)

    played = [(p, channel, text) for p, channel, text in moves_by_channel(session, game)]
    assert played == [(late.position, "clock", text) for text in expected]
    assert "token" not in expected and expected[-1] == "end"
    assert engine_game(game).state.tokens[late.position] == ACTION_TOKENS


def test_a_resigned_seat_is_played_by_the_stand_in_level(app, session, make_user, thoughts):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob])
    game.stand_in = STAND_IN
    session.commit()
    expected = expected_moves(game, 0, STAND_IN, stand_in=False)

    resign(session, game.seats[0])
    session.commit()
    drain(app)

    seat = session.get_one(Seat, game.seats[0].id, populate_existing=True)
    assert seat.bot == STAND_IN and seat.resigned_at is not None
    bots_moves = [(p, text) for p, channel, text in moves_by_channel(session, game)]
    assert bots_moves == [(0, text) for text in expected]
    assert {channel for _, channel, _ in moves_by_channel(session, game)} == {"bot"}
    thought_on_the_bots_queue(app, thoughts, seat)
    told = session.scalar(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == notifications.SEAT_RESIGNED)
    )
    assert "Played by bots: Ann (easy)." in text_of(compose(session, told, app.config))


def test_a_withdrawn_entrants_games_are_played_by_the_leagues_stand_in(
    app, session, make_user, thoughts
):
    owner, ann, bob = make_user("Organiser"), make_user("Ann"), make_user("Bob")
    league = create_league(session, owner, "Club", "taluva", 2, stand_in=STAND_IN)
    for entrant in (ann, bob):
        invite_entrant(session, league, owner, entrant.email, "https://pbem.test/league")
        join_league(session, league.public_id, entrant)
    with app.app_context():
        season = start_season(session, league, seed="levels")
    session.commit()
    drain(app)
    [game] = season.games
    assert game.stand_in == STAND_IN
    first = next(seat for seat in game.seats if seat.position in game.to_act)
    expected = expected_moves(game, first.position, STAND_IN, stand_in=False)
    place = next(p for p in season.entrants if p.user_id == first.user_id)

    withdraw(session, season, place.id, owner)
    session.commit()
    drain(app)

    seat = session.get_one(Seat, first.id, populate_existing=True)
    assert seat.bot == STAND_IN and seat.resigned_at is not None
    moves = moves_by_channel(session, game)
    assert moves[: len(expected)] == [(first.position, "bot", text) for text in expected]
    thought_on_the_bots_queue(app, thoughts, seat)


def test_a_persons_turn_is_judged_while_a_bot_thinks(app, session, make_user):
    """The bots' worker is kept busy; a bot asked meanwhile waits for it,
    while people's turns go on being judged by the tasks' worker."""
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    with_bot = start_game(app, session, "taluva", [ann, "bot"])
    people = start_game(app, session, "taluva", [bob, cy])
    _held.clear()
    app.extensions["celery"].send_task(HOLD_BOTS, queue=app.config["PBEM_BOT_QUEUE"])
    try:
        bot_seat = with_bot.seats[1]
        play_a_turn(app, session, with_bot, 0)
        session.refresh(bot_seat)
        assert bot_seat.bot_asked_at is not None  # asked, and waiting for the bots' worker

        bobs = send(app, session, people, 0, first_legal(engine_game(people), 0))
        assert judged(app, bobs.id).status == SubmissionStatus.ACCEPTED
        session.expire_all()
        assert session.get_one(Seat, bot_seat.id).bot_asked_at is not None  # still waiting
        assert not bots_submissions(session, with_bot)
    finally:
        _held.set()
    wait_for(lambda: bots_submissions(session, with_bot), what="the bot to move after all")


def bots_submissions(session, game: Game) -> list[Submission]:
    session.expire_all()
    return list(
        session.scalars(
            select(Submission).where(Submission.game_id == game.id, Submission.channel == "bot")
        )
    )


def test_a_bots_moves_for_a_position_the_game_left_are_refused(app, session, make_user):
    """The one door's rule for bots: moves chosen for a position the game
    has left are dropped, whatever came of the think since."""
    ann = make_user("Ann")
    game = start_game(app, session, "taluva", [ann, "bot"])
    bot_seat = game.seats[1]
    play_a_turn(app, session, game, 0)
    session.expire_all()
    stale = expected_moves(session.get_one(Game, game.id), 1, "random", stand_in=False)
    with pytest.raises(TurnRefused) as refused:
        accept_turn(session, bot_seat, None, "\n".join(stale), "bot", seen=0)
    assert refused.value.why == "moved_on"
    session.rollback()
    drain(app)


def test_a_think_with_nothing_left_to_do_lets_the_seat_be_asked_again(app, session, make_user):
    ann = make_user("Ann")
    game = start_game(app, session, "taluva", [ann, "bot"])  # Ann moves first
    bot_seat = game.seats[1]
    bot_seat.bot_asked_at = utcnow()  # as if a think had been asked and lost
    session.commit()
    assert think(session, bot_seat.id) == "nothing to do"
    assert session.get_one(Seat, bot_seat.id, populate_existing=True).bot_asked_at is None
