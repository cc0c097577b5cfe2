"""Shared steps of the pipeline tests: start games, send turns, read results."""

from __future__ import annotations

import uuid

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from engine.games.java.state import JavaState
from pbem.models import Game, GameStatus, Move, Outbox, Seat, Submission, SubmissionStatus, User
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.pipeline import process_submission
from pbem.services.replay import engine_game
from pbem.services.submissions import submit
from pbem.task_names import PROCESS_SUBMISSION
from tests.server.conftest import wait_for


def start_game(
    app: Flask, session: Session, ruleset: str, seats: list[User | str], **options
) -> Game:
    """Seats: a user, or 'bot'."""
    specs = [SeatSpec(user=s) if isinstance(s, User) else SeatSpec(bot="random") for s in seats]
    creator = next((s for s in seats if isinstance(s, User)), None)
    game = create_game(session, creator, ruleset, specs, options, seed="test-seed")
    session.commit()  # bots that move first are handed to the worker now
    return game


def stored_first_tile(session: Session) -> Submission:
    """Two players start Taluva (a ruleset every worker process knows) and the
    first stores an opening tile that no worker will hear of; the caller commits."""
    tag = uuid.uuid4().hex[:8]
    ann = accounts.create_user(session, f"ann-{tag}@example.org", "Ann")
    bob = accounts.create_user(session, f"bob-{tag}@example.org", "Bob")
    game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)])
    state = engine_game(game).state
    return lost_submission(session, game.seats[0], state.format_move(state.legal_moves(0)[0]))


def lost_submission(session: Session, seat: Seat, text: str, channel: str = "api") -> Submission:
    """A turn stored as the one door stores it, whose hand-off to a worker is
    lost (a broker down, a process killed right after the commit): only the
    sweeps, or a test's hand_on, bring it to a worker."""
    submission = Submission(
        game_id=seat.game_id,
        seat_id=seat.id,
        raw_text=text,
        channel=channel,
        author_id=seat.user_id,
        sent_for_id=seat.user_id,
    )
    session.add(submission)
    session.flush()
    return submission


def hand_on(app: Flask, *submission_ids: int) -> None:
    """What the hand-off after a commit does, for a lost submission."""
    for submission_id in submission_ids:
        app.extensions["celery"].send_task(PROCESS_SUBMISSION, args=[submission_id])


def send(app: Flask, session: Session, game: Game, position: int, text: str) -> Submission:
    """Store a turn; a worker judges it once it is committed."""
    submission = submit(session, game.seats[position], text, channel="api")
    session.commit()
    return submission


def judged(app: Flask, submission_id: int) -> Submission:
    """The submission once a worker has judged it."""
    from pbem.db import get_db

    def status() -> Submission | None:
        with app.app_context(), get_db().session() as fresh:
            found = fresh.get(Submission, submission_id)
            assert found is not None
            return found if found.status != SubmissionStatus.PENDING else None

    return wait_for(status, what=f"submission {submission_id} to be judged")


def first_legal(played: engine.Game, position: int) -> str:
    """The seat's first legal move, played on `played` too."""
    state = played.state
    move = state.format_move(state.legal_moves(position)[0])
    played.play(position, move)
    return move


def play_first_legal(app: Flask, session: Session, game: Game, position: int) -> None:
    """The seat's first legal move, through the pipeline."""
    session.expire_all()
    move = first_legal(engine_game(session.get(Game, game.id)), position)
    assert judged(app, send(app, session, game, position, move).id).status == "accepted"


def play_a_turn(app: Flask, session: Session, game: Game, position: int) -> None:
    """The seat's first legal moves, one submission each, until its turn ends."""
    while True:
        session.expire_all()
        game = session.get_one(Game, game.id)
        if position not in game.to_act:
            return
        move = first_legal(engine_game(game), position)
        assert judged(app, send(app, session, game, position, move).id).status == "accepted"


def moves_of(session: Session, game: Game) -> list[tuple[int, int, str]]:
    """(ply, seat position, text) of every stored move."""
    session.expire_all()
    rows = session.execute(
        select(Move.ply, Move.seat_id, Move.text).where(Move.game_id == game.id).order_by(Move.ply)
    )
    positions = {seat.id: seat.position for seat in game.seats}
    return [(ply, positions[seat_id], text) for ply, seat_id, text in rows]


def outbox_of(session: Session, game: Game) -> list[tuple[str, int]]:
    """(kind, seat) of every queued notification, in order."""
    rows = session.scalars(select(Outbox).where(Outbox.game_id == game.id).order_by(Outbox.id))
    return [(row.kind, row.payload["seat"]) for row in rows]


# Java with seed "test-seed" and seats ["bot", Ann]: Ann (seat 1) moves first,
# holds D MP DP and the face-up card is P; the deck's top card is M. Her turn
# lays a village of two, builds a palace, then draws from the deck hoping for
# a P to hold the festival: only the drawn card decides whether it may be held.
PALACE_TURN = ("double A3 B3 village=B3", "village B4", "enter B4", "build B3 2")
FESTIVAL_AFTER_A_DRAW = (*PALACE_TURN, "draw deck", "festival B3 P")


# Java with seed "test-seed" and seats [Bob, Ann, Cid]: Cid builds a palace
# on B3, Bob lays a tile elsewhere, Ann enters the palace's city; then Cid
# holds a festival of two M cards (the face-up card is M) that Ann, holding
# one, cannot match: the auction drops her without asking and ends at once,
# Cid alone scoring 1. Bob is to move after it.
TURNS_BEFORE_THE_FESTIVAL = (
    (2, (*PALACE_TURN, "end")),
    (0, ("rice G9", "end")),
    (1, ("double A2 B2 village=B2", "enter B2", "end")),
)
FESTIVAL_TURN = ("triple A1 B0 B1 village=A1", "draw deck", "draw deck", "festival B3 M M")
FESTIVAL_OUTCOMES = {
    "en": "the festival at B3 went to Cid alone, scoring 1; Ann could not match the highest total",
    "fr": "la fête en B3 revient sans partage à Cid, qui marque 1 ; "
    "impossible d'égaler le total le plus haut pour Ann",
    "cs": "slavnost na B3 bez dělení pro Cid, zisk 1; bez možnosti dorovnat nejvyšší součet: Ann",
}


def java_before_a_festival(app: Flask, session: Session, players: list[User]) -> Game:
    """The game of TURNS_BEFORE_THE_FESTIVAL for Bob, Ann and Cid, played up to
    Cid's festival turn."""
    game = start_game(app, session, "java", players)
    for position, moves in TURNS_BEFORE_THE_FESTIVAL:
        turn = send(app, session, game, position, "\n".join(moves))
        assert judged(app, turn.id).status == "accepted"
    return game


def java_ann_first(app: Flask, session: Session, ann: User) -> Game:
    game = start_game(app, session, "java", ["bot", ann])
    state = engine_game(game).state
    assert isinstance(state, JavaState)
    assert state.current == 1 and state.faceup == "P"
    assert state.hands[1] == ["D", "MP", "DP"] and state.deck[-1] == "M"
    return game


def played_out(session: Session, ann: User, bob: User) -> Game:
    """A toy game to target 3 where Ann always out-picks Bob, played through
    the pipeline's own judging (no worker needed) until it ends."""
    game = create_game(
        session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob)], {"target": 3}
    )
    session.commit()
    while game.status != GameStatus.FINISHED:
        for position, pick in ((0, "pick 3"), (1, "pick 1")):
            process_submission(session, submit(session, game.seats[position], pick, "api").id)
        session.refresh(game)
    return game


def rivals(session: Session, ann: User, bob: User) -> tuple[Game, Game]:
    """Ann beat Bob once (a rated game); a second game between them goes on."""
    done = played_out(session, ann, bob)
    going_on = create_game(session, bob, "toy-pick", [SeatSpec(user=bob), SeatSpec(user=ann)], {})
    session.commit()
    return done, going_on
