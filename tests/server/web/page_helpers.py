"""Steps of the page tests: a game started from the lobby's form or against a
bot, the move form posted as the page drew it, and what the database holds
after (legal moves, submissions, plies); the path of a mailed link."""

from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy import func, select

from pbem.models import Game, Submission, User
from pbem.services.replay import engine_game
from tests.server.pipeline_helpers import start_game


def legal(session, game: Game, position: int) -> list[str]:
    """The seat's legal moves in the game as stored now."""
    session.expire_all()
    state = engine_game(session.get(Game, game.id)).state
    return [state.format_move(m) for m in state.legal_moves(position)]


def submissions(session, game: Game, author: User | None = None) -> int:
    """How many submissions the game has stored (of `author` alone, if
    named: a bot may answer meanwhile): a refused move stores none."""
    counted = select(func.count()).where(Submission.game_id == game.id)
    if author is not None:
        counted = counted.where(Submission.author_id == author.id)
    return session.scalar(counted)


def plies(session, game: Game) -> int:
    """How many moves the game has played."""
    session.expire_all()
    return len(session.get(Game, game.id).moves)


def send(browser, game: Game, moves: str, action: str = "submit"):
    """Post the move form as drawn at the start of the game (ply 0)."""
    return browser.post(f"/games/{game.public_id}/{action}", {"moves": moves, "ply": "0"})


def taluva_against(app, session, user, *others):
    """Taluva of `user` (seat 0) against `others`, or against a bot."""
    return start_game(app, session, "taluva", [user, *others] if others else [user, "bot"])


def created_game(session, response) -> Game:
    """The game the new-game form made, from the redirect to its page."""
    assert response.status_code == 302, response.get_data(as_text=True)
    public_id = response.location.rsplit("/", 1)[1]
    session.expire_all()
    return session.scalar(select(Game).where(Game.public_id == public_id))


def path_of(link: str) -> str:
    """A mailed link's path and query, as the test client asks for it."""
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path
