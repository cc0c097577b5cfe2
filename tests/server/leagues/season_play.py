"""A league season in the services, as its players would make it: a league
of the toy game with invited entrants who joined, and its games played out
to the result a test wants."""

from __future__ import annotations

from sqlalchemy import select

from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.models import Game, GameStatus, Submission, SubmissionStatus
from pbem.services.pipeline import process_submission
from pbem.services.submissions import submit
from tests import toy_game  # noqa: F401  (registers the toy ruleset)


def league_of(session, make_user, names, **settings):
    """A league of "toy-pick" to 3 made by an organiser, which `names` have
    joined; (organiser, league, players)."""
    owner = make_user("Organiser")
    league = create_league(session, owner, "Club", "toy-pick", 2, {"target": 3}, **settings)
    players = [make_user(name) for name in names]
    for player in players:
        invite_entrant(session, league, owner, player.email, "https://pbem.test/league")
        join_league(session, league.public_id, player)
    session.commit()
    return owner, league, players


def play_out(session, game: Game, winner_user_id: int) -> None:
    """The winner's seat picks 3 and the other 1 until the game is over; the
    bots' turns are judged here, as the worker would."""
    while game.status == GameStatus.ACTIVE:
        waiting = select(Submission.id).where(
            Submission.game_id == game.id, Submission.status == SubmissionStatus.PENDING
        )
        for submission_id in session.scalars(waiting).all():
            process_submission(session, submission_id)
        session.refresh(game)
        for seat in game.seats:
            if seat.position in game.to_act and seat.bot is None and game.status == "active":
                pick = 3 if seat.user_id == winner_user_id else 1
                submission = submit(session, seat, f"pick {pick}", channel="api")
                session.commit()
                process_submission(session, submission.id)
        session.refresh(game)
