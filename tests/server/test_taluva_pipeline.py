"""A whole game of Taluva played by bots through the submission pipeline."""

from __future__ import annotations

from sqlalchemy import select

from pbem.models import Game, GameStatus, Submission, SubmissionStatus
from pbem.services.replay import engine_game, verify_game
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import start_game


def test_taluva_bots_play_a_full_game_through_the_pipeline(app, session):
    game = start_game(app, session, "taluva", ["bot", "bot"])

    def finished() -> bool:
        session.expire_all()
        return session.get(Game, game.id).status == GameStatus.FINISHED

    wait_for(finished, timeout=90, what="the Taluva game to end")
    stored = session.get(Game, game.id)
    played = engine_game(stored)
    assert played.state.result() is not None
    assert verify_game(stored) == []
    submissions = session.scalars(select(Submission).where(Submission.game_id == game.id)).all()
    assert all(s.status == SubmissionStatus.ACCEPTED for s in submissions)
    # A bot's turn (place a tile, then build) travels as one submission.
    assert len(submissions) < len(stored.moves)
    assert {m.channel for m in stored.moves} == {"bot"}
    assert [m.ply for m in stored.moves] == list(range(1, len(stored.moves) + 1))
