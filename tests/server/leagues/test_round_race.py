"""The last two games of a round ending at the same moment, in two workers:
the season's lock makes the later of them see the other over, so the next
round starts once, neither never nor twice."""

from __future__ import annotations

import threading

from pbem.leagues.seasons import start_season
from pbem.models import Game, GameStatus, Submission
from pbem.services.pipeline import process_submission
from pbem.services.replay import engine_game
from pbem.services.submissions import submit
from tests.server.leagues.season_play import league_of
from tests.server.pipeline_helpers import lost_submission

RUNS = 3


def test_two_games_ending_at_once_start_the_next_round_once(postgres_only, session, make_user):
    for _ in range(RUNS):
        _, league, _ = league_of(session, make_user, ["Ann", "Bob", "Cem", "Dan"])
        season = start_season(session, league, pacing="rounds")
        session.commit()
        last_moves = [stored_last_move(session, game) for game in season.games]
        end_at_once(postgres_only, last_moves)
        session.expire_all()
        rounds = sorted(game.round for game in season.games)
        assert rounds == [1, 1, 2, 2], rounds


def stored_last_move(session, game: Game) -> int:
    """Play the game up to its last submission, which is stored, not judged."""
    while True:
        for seat in game.seats:
            if seat.position not in game.to_act:
                continue
            text = f"pick {3 if seat.position == 0 else 1}"
            trial = engine_game(game)
            trial.play(seat.position, text)
            if trial.result() is not None:
                last = lost_submission(session, seat, text)  # for the racing threads alone
                session.commit()
                return last.id
            submission = submit(session, seat, text, channel="api")
            session.commit()
            process_submission(session, submission.id)
            session.refresh(game)


def end_at_once(app, submission_ids: list[int]) -> None:
    start = threading.Barrier(len(submission_ids))
    errors: list[BaseException] = []

    def judge(submission_id: int) -> None:
        try:
            with app.extensions["pbem.db"].session() as own:
                start.wait()
                process_submission(own, submission_id)
                assert own.get(Submission, submission_id).game.status == GameStatus.FINISHED
        except BaseException as exc:  # the main thread reports it
            errors.append(exc)

    threads = [threading.Thread(target=judge, args=(i,)) for i in submission_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, [str(getattr(e, "orig", e)) for e in errors]
