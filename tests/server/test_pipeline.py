"""The submission pipeline, through a real worker, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

from pbem.db import get_db
from pbem.models import Game, GameStatus, Outbox, Submission, SubmissionStatus, utcnow
from pbem.services import pipeline
from pbem.services.replay import engine_game, verify_game
from pbem.services.submissions import submit
from pbem.task_names import PROCESS_SUBMISSION, REQUEUE_STALE
from tests.server.conftest import drain, wait_for
from tests.server.pipeline_helpers import (
    FESTIVAL_AFTER_A_DRAW,
    PALACE_TURN,
    java_ann_first,
    judged,
    lost_submission,
    moves_of,
    outbox_of,
    send,
    start_game,
)

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def test_accepted_move_is_stored_with_its_ply_and_channel(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    submission = send(app, session, game, 0, "  pick 2  ")
    assert judged(app, submission.id).status == SubmissionStatus.ACCEPTED
    assert moves_of(session, game) == [(1, 0, "pick 2")]
    assert session.get(Game, game.id).to_act == [1]


def test_seats_that_must_act_are_notified_once_per_turn(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    judged(app, send(app, session, game, 0, "pick 1").id)
    assert turn_notices(session, game) == [("your_turn", 0), ("your_turn", 1)]
    judged(app, send(app, session, game, 1, "pick 2").id)
    assert turn_notices(session, game)[2:] == [("your_turn", 0), ("your_turn", 1)]


def test_a_seat_acting_move_by_move_is_told_once_per_turn(app, session, make_user):
    """Java: a land tile, a card and 'end', each sent alone, for four turns."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "java", [ann, bob])
    turns = []
    for _ in range(4):
        session.expire_all()
        played = engine_game(session.get(Game, game.id))
        seat = min(played.state.to_act())
        turns.append(("your_turn", seat))
        state = played.state
        tile = state.format_move(state.legal_moves(seat)[0])
        played.play(seat, tile)
        card = next(
            text
            for text in map(state.format_move, played.state.legal_moves(seat))
            if text.startswith("draw")
        )
        for action in (tile, card, "end"):
            assert judged(app, send(app, session, game, seat, action).id).status == "accepted"
    session.expire_all()
    assert turn_notices(session, game) == [*turns, ("your_turn", turns[-1][1] ^ 1)]


def test_a_taluva_tile_sent_alone_is_answered_and_the_turn_goes_on(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob])
    played = engine_game(game)
    state = played.state
    tile = state.format_move(state.legal_moves(0)[0])
    played.play(0, tile)
    build = played.state.format_move(played.state.legal_moves(0)[0])
    by_mail = submit(session, game.seats[0], tile, channel="mail")
    session.commit()
    assert judged(app, by_mail.id).status == "accepted"
    session.expire_all()
    to_ann = [row for row in outbox_of(session, game) if row[1] == 0]
    assert to_ann == [("your_turn", 0), ("submission_accepted", 0)]
    answer = session.scalar(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "submission_accepted")
    )
    assert answer.payload["board"] is True  # it lists the builds open now
    judged(app, send(app, session, game, 0, build).id)
    assert turn_notices(session, game) == [("your_turn", 0), ("your_turn", 1)]
    session.expire_all()
    again = engine_game(session.get(Game, game.id))
    whole_turn = [again.state.format_move(again.state.legal_moves(1)[0])]
    again.play(1, whole_turn[0])
    whole_turn.append(again.state.format_move(again.state.legal_moves(1)[0]))
    judged(app, send(app, session, game, 1, "\n".join(whole_turn)).id)
    session.expire_all()
    assert turn_notices(session, game)[2:] == [("your_turn", 0)]  # handed back to Ann


def turn_notices(session, game):
    """The 'your turn' notifications; 'X moved' ones have tests of their own."""
    return [row for row in outbox_of(session, game) if row[0] == "your_turn"]


def test_illegal_move_is_rejected_with_the_engines_reason(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    rejected = judged(app, send(app, session, game, 0, "pick 9").id)
    assert rejected.status == SubmissionStatus.REJECTED
    assert rejected.reason == "you may pick 1, 2 or 3, not 9 [picks]"
    assert moves_of(session, game) == []
    assert ("submission_rejected", 0) in outbox_of(session, game)


def test_malformed_move_is_rejected_and_nothing_stored(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    rejected = judged(app, send(app, session, game, 0, "jump 2").id)
    assert rejected.reason == "write 'pick N', not 'jump 2'"
    assert moves_of(session, game) == []


def test_submission_with_a_bad_line_applies_none_of_its_moves(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    rejected = judged(app, send(app, session, game, 0, "pick 1\n# comment\npick 2").id)
    assert rejected.status == SubmissionStatus.REJECTED
    assert "not your turn" in rejected.reason
    assert moves_of(session, game) == []


def test_a_draw_stands_when_a_move_after_it_is_refused(app, session, make_user):
    """Ann draws the M; her festival with a P she hoped for is refused, but
    the draw is not taken back: she has seen the card."""
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    partly = judged(app, send(app, session, game, 1, "\n".join(FESTIVAL_AFTER_A_DRAW)).id)
    assert partly.status == SubmissionStatus.PARTIAL
    assert partly.reason == (
        f"played {'; '.join(PALACE_TURN)}; draw deck (a draw cannot be taken back); "
        "not played festival B3 P, because 'festival B3 P': "
        "you do not hold the card P [festival cards]"
    )
    assert [text for _, _, text in moves_of(session, game)] == [*PALACE_TURN, "draw deck"]
    stored = session.get(Game, game.id)
    assert verify_game(stored) == [] and stored.to_act == [1]
    assert engine_game(stored).state.hands[1] == ["M", "D", "MP", "DP"]
    assert ("submission_rejected", 1) in outbox_of(session, game)


def test_a_move_refused_before_any_draw_plays_nothing(app, session, make_user):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    rejected = judged(app, send(app, session, game, 1, "festival B3 P\ndraw deck").id)
    assert rejected.status == SubmissionStatus.REJECTED
    assert rejected.reason == "there is no palace on B3 [festival]"
    assert moves_of(session, game) == []


def test_empty_submission_is_rejected(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    assert judged(app, send(app, session, game, 1, "\n# only a comment\n").id).reason == (
        "the submission holds no move"
    )


def test_double_submission_is_applied_once(app, session, make_user):
    """Mail may queue a second reply behind the first (the pages and the API
    refuse it at once: tests/server/web/test_one_move_once.py)."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    first, second = (submit(session, game.seats[0], "pick 3", channel="mail") for _ in range(2))
    session.commit()
    statuses = sorted(judged(app, s.id).status for s in (first, second))
    assert statuses == [SubmissionStatus.ACCEPTED, SubmissionStatus.REJECTED]
    assert moves_of(session, game) == [(1, 0, "pick 3")]


def test_task_delivered_twice_applies_the_submission_once(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    submission = send(app, session, game, 0, "pick 2")
    app.extensions["celery"].send_task(PROCESS_SUBMISSION, args=[submission.id])
    app.extensions["celery"].send_task(PROCESS_SUBMISSION, args=[submission.id])
    assert judged(app, submission.id).status == SubmissionStatus.ACCEPTED
    drain(app)
    assert moves_of(session, game) == [(1, 0, "pick 2")]


def test_concurrent_processing_of_one_submission_applies_it_once(app, session, make_user):
    """Two workers on one submission (a redelivery racing the first run)."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    submission = send(app, session, game, 1, "pick 1")
    outcomes = []

    def run() -> None:
        with app.app_context(), get_db().session() as own:
            outcomes.append(pipeline.process_submission(own, submission.id))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {o.status for o in outcomes} == {SubmissionStatus.ACCEPTED}
    assert moves_of(session, game) == [(1, 1, "pick 1")]


def test_submission_for_a_game_waiting_for_players_is_rejected(app, session, make_user):
    ann = make_user("Ann")
    from pbem.services.games import SeatSpec, create_game

    game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec()])
    session.commit()
    rejected = judged(app, send(app, session, game, 0, "pick 1").id)
    assert rejected.reason == "the game has not started: it is waiting for players"


@pytest.mark.parametrize("players", [2, 3])
def test_bots_play_through_the_pipeline_until_the_game_ends(app, session, players):
    game = start_game(app, session, "toy-pick", ["bot"] * players, target=3)
    wait_for(lambda: _status(app, game.id) == GameStatus.FINISHED, what="the bots to finish")
    session.expire_all()
    submissions = session.scalars(select(Submission).where(Submission.game_id == game.id)).all()
    assert {s.channel for s in submissions} == {"bot"}
    assert all(s.status == SubmissionStatus.ACCEPTED for s in submissions)
    finished = session.get(Game, game.id)
    assert engine_game(finished).state.is_over()
    assert finished.to_act == []
    assert verify_game(finished) == []


def test_a_person_and_a_bot_play_to_the_end(app, session, make_user):
    ann = make_user("Ann")
    game = start_game(app, session, "toy-pick", [ann, "bot"], target=3)

    def ann_to_act_or_over() -> bool:
        return 0 in _to_act(app, game.id) or _status(app, game.id) == GameStatus.FINISHED

    for _ in range(30):
        wait_for(ann_to_act_or_over, what="Ann's turn")
        if _status(app, game.id) == GameStatus.FINISHED:
            break
        assert judged(app, send(app, session, game, 0, "pick 3").id).status == "accepted"
    assert _status(app, game.id) == GameStatus.FINISHED
    assert ("game_over", 0) in outbox_of(session, game)
    channels = session.scalars(select(Submission.channel).where(Submission.game_id == game.id))
    assert set(channels) == {"api", "bot"}


def test_full_replay_check_finds_a_stale_turn_cache(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    judged(app, send(app, session, game, 0, "pick 2").id)
    session.expire_all()
    stored = session.get(Game, game.id)
    assert verify_game(stored) == []
    stored.to_act = [0, 1]
    assert verify_game(stored) == ["stored to_act [0, 1] but the log gives [1]"]


def _status(app: Flask, game_id: int) -> str:
    with app.app_context(), get_db().session() as own:
        return own.scalar(select(Game.status).where(Game.id == game_id))


def _to_act(app: Flask, game_id: int) -> list[int]:
    with app.app_context(), get_db().session() as own:
        return own.scalar(select(Game.to_act).where(Game.id == game_id))


def test_sweep_hands_on_a_submission_whose_task_message_was_lost(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob])
    lost = lost_submission(session, game.seats[1], "pick 3", channel="mail")
    lost.created_at = utcnow() - timedelta(minutes=5)
    session.commit()
    app.extensions["celery"].send_task(REQUEUE_STALE)
    assert judged(app, lost.id).status == SubmissionStatus.ACCEPTED
    assert moves_of(session, game) == [(1, 1, "pick 3")]
