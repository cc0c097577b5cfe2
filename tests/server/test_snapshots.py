"""Engine state snapshots: used when they can be trusted, never served when not."""

from __future__ import annotations

import logging
import pickle
import zlib

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.cli import main
from pbem.models import Game, GameSnapshot, Move, User
from pbem.services import snapshots
from pbem.services.games import SeatSpec, create_game
from pbem.services.pipeline import process_submission
from pbem.services.replay import engine_game, record_of, verify_game
from pbem.services.submissions import submit
from pbem.web.positions import position_at

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


@pytest.fixture
def checks(app: Flask):
    """The app with snapshot checks at a chosen percentage, restored afterwards."""
    before = app.config["PBEM_SNAPSHOT_CHECK_PERCENT"]

    def set_percent(percent: int) -> None:
        app.config["PBEM_SNAPSHOT_CHECK_PERCENT"] = percent

    yield set_percent
    app.config["PBEM_SNAPSHOT_CHECK_PERCENT"] = before


def toy_game(session: Session, ann: User, bob: User) -> Game:
    """Both always pick the same number, so nobody scores and the game goes on."""
    game = create_game(session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(user=bob)], {})
    session.commit()
    return game


def play_rounds(session: Session, game: Game, rounds: int, pick: int = 1) -> None:
    for _ in range(rounds):
        for position in (0, 1):
            process_submission(
                session, submit(session, game.seats[position], f"pick {pick}", "api").id
            )
    session.refresh(game)


def snapshot_plies(session: Session, game: Game) -> list[int]:
    session.expire_all()
    return list(
        session.scalars(
            select(GameSnapshot.ply)
            .where(GameSnapshot.game_id == game.id)
            .order_by(GameSnapshot.ply)
        )
    )


def forge(session: Session, game: Game, ply: int) -> None:
    """Put a state where Ann has 4 points in place of the snapshot at `ply`,
    signed with the app's key and carrying the right digest: only a full
    replay can tell it is wrong."""
    forged = snapshots.from_scratch(record_of(game), ply)
    forged.state.points = [4, 0]
    row = session.get_one(GameSnapshot, (game.id, ply))
    row.data = zlib.compress(pickle.dumps(forged.state))
    row.signature = snapshots._sign(b"test", row.data)
    session.commit()


def test_a_judged_turn_stores_the_snapshot_the_next_load_starts_from(
    app, session, make_user, checks
):
    checks(0)
    game = toy_game(session, make_user("Ann"), make_user("Bob"))
    with app.app_context():
        play_rounds(session, game, 3)
        assert snapshot_plies(session, game) == [1, 6]  # block 0's checkpoint and the newest
        truth = snapshots.from_scratch(record_of(game), 6)
        assert snapshots.differences(engine_game(game), truth) == []
        # A forged state with a valid signature is served as it stands: the
        # snapshot, not a replay, is where the game came from.
        forge(session, game, 6)
        assert engine_game(session.get(Game, game.id)).state.points == [4, 0]


def test_a_checked_load_that_disagrees_serves_the_replay_and_forgets_the_snapshots(
    app, session, make_user, checks, caplog
):
    checks(100)
    game = toy_game(session, make_user("Ann"), make_user("Bob"))
    with app.app_context():
        play_rounds(session, game, 2)
        forge(session, game, 4)
        with caplog.at_level(logging.ERROR, logger="pbem.services.snapshots"):
            served = engine_game(session.get(Game, game.id))
        assert served.state.points == [0, 0]
        assert "disagrees with the log" in caplog.text
        session.flush()
        assert snapshot_plies(session, game) == []


def test_a_snapshot_with_a_bad_signature_or_of_another_log_is_not_used(
    app, session, make_user, checks
):
    checks(0)
    game = toy_game(session, make_user("Ann"), make_user("Bob"))
    with app.app_context():
        play_rounds(session, game, 2)
        row = session.get_one(GameSnapshot, (game.id, 4))
        row.data = zlib.compress(pickle.dumps(snapshots.from_scratch(record_of(game), 0).state))
        session.commit()  # not re-signed
        assert len(engine_game(session.get(Game, game.id)).log) == 4
        session.commit()
        assert snapshot_plies(session, game) == []

        play_rounds(session, game, 1)  # fresh snapshots at plies 5 and 6
        first = session.scalars(select(Move).where(Move.game_id == game.id, Move.ply == 1)).one()
        first.text = "pick 3"  # the log now says otherwise before the snapshot
        session.commit()
        assert snapshot_plies(session, game) == [5, 6]
        played = engine_game(session.get(Game, game.id))
        assert played.log[0].text == "pick 3" and played.state.points[0] > 0
        assert snapshots.differences(played, snapshots.from_scratch(record_of(game), 6)) == []


def test_snapshots_of_other_engine_code_are_ignored_then_dropped(app, session, make_user, checks):
    checks(0)
    game = toy_game(session, make_user("Ann"), make_user("Bob"))
    with app.app_context():
        play_rounds(session, game, 1)
        forge(session, game, 2)
        for row in session.scalars(select(GameSnapshot).where(GameSnapshot.game_id == game.id)):
            row.fingerprint = "0" * 64
        session.commit()
        assert engine_game(session.get(Game, game.id)).state.points == [0, 0]
        play_rounds(session, game, 1)
        assert snapshot_plies(session, game) == [3, 4]


def test_checkpoints_keep_the_first_snapshot_of_each_block_and_the_newest(app, session, make_user):
    game = toy_game(session, make_user("Ann"), make_user("Bob"))
    seat_ids = [seat.id for seat in game.seats]
    with app.app_context():
        played = snapshots.from_scratch(record_of(game), 0)
        for ply in range(1, 251):
            seat = (ply - 1) % 2
            played.play(seat, "pick 1")
            game.moves.append(Move(ply=ply, seat_id=seat_ids[seat], text="pick 1", channel="api"))
            if ply in (3, 50, 99, 100, 101, 150, 230, 250):
                snapshots.keep(session, game.id, record_of(game), played)
                session.commit()
        assert snapshot_plies(session, game) == [3, 100, 230, 250]
        for ply in (0, 2, 3, 120, 229, 240, 250):
            at = position_at(session.get(Game, game.id), ply).played
            assert snapshots.differences(at, snapshots.from_scratch(record_of(game), ply)) == []
            assert len(at.log) == ply
        assert verify_game(session.get(Game, game.id)) == []


def test_pbem_verify_drops_a_snapshot_that_disagrees(app, session, make_user, checks):
    checks(0)
    game = toy_game(session, make_user("Ann"), make_user("Bob"))
    with app.app_context():
        play_rounds(session, game, 2)
    runner = app.test_cli_runner()
    good = runner.invoke(main, ["verify", "--", game.public_id])
    assert (good.exit_code, good.output) == (0, f"{game.public_id}: ok\n")
    with app.app_context():
        forge(session, game, 4)
    bad = runner.invoke(main, ["verify", "--", game.public_id])
    assert bad.exit_code == 1
    assert "snapshot at ply 4: the view of a spectator differs" in bad.output
    assert snapshot_plies(session, game) == []
    assert runner.invoke(main, ["verify", "--", game.public_id]).exit_code == 0
    assert runner.invoke(main, ["verify", "no-such-game"]).exit_code == 1
    assert runner.invoke(main, ["verify"]).exit_code == 2  # neither games nor --all
