"""Page weight of the game page (issue 13: under 300 KB): prints bytes, asserts nothing.

    .venv/bin/python -m benchmarks.page_weight [--players 3]

For each ruleset a seeded bot game is stored in a scratch SQLite database
with a signed-in player on seat 0, cut at the opening (ply 0) and at the
seat's turn nearest the middle of the game; the player's game page and the
spectator's page are fetched through the Flask test client. Columns: the
whole HTML page, the inline board (<svg> of the board), the legal moves
(their groups, or the pick form), the seat's board.png (before issue 13
every page loaded it; now it is a link), and the spectator's page, in KB
(1024 bytes); the style sheet and script come once, cached.
"""

from __future__ import annotations

import argparse
import re

import engine
from benchmarks.pictures import cut, sqlite_app, stored_game
from engine.core.selfplay import play_bot_game
from pbem.models import User
from tests.server.signed_in import sign_in

SEED = "bench-pages"
BOARD = re.compile(r'<div class="board-frame".*?</svg>', re.S)
LEGAL = re.compile(r'<div class="legal-groups".*?</div>|<form [^>]*id="pick-form".*?</form>', re.S)


def kb(part: str) -> str:
    return f"{len(part.encode()) / 1024:8.1f}"


def seat_turn_near(played: engine.Game, ply: int) -> int:
    """The first ply from `ply` on at which seat 0 is to act."""
    for at in range(ply, len(played.log) + 1):
        if 0 in cut(played, at).state.to_act():
            return at
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    app = sqlite_app("pbem-pages-")
    print(f"{'game':8} {'ply':>5} {'page':>8} {'board':>8} {'legal':>8} {'png':>8} | {'watch':>8}")
    for number, ruleset in enumerate(engine.rulesets()):
        players = min(args.players, ruleset.max_players)
        played = play_bot_game(ruleset.name, players, SEED).game
        for ply in (0, seat_turn_near(played, len(played.log) // 2)):
            with app.extensions["pbem.db"].session() as session:
                user = User(email=f"p{number}-{ply}@example.org", name="Ann")
                game = stored_game(cut(played, ply))
                game.seats[0].bot = None
                game.seats[0].user = user
                session.add(game)
                session.commit()
                public_id, user_id = game.public_id, user.id
            client = sign_in(app, app.test_client(), user_id)
            page = client.get(f"/games/{public_id}").get_data(as_text=True)
            watch = client.get(f"/games/{public_id}/watch").get_data(as_text=True)
            png = client.get(f"/games/{public_id}/board.png?seat=0").get_data()
            board = BOARD.search(page)
            legal = LEGAL.search(page)
            print(
                f"{ruleset.name:8} {ply:5d} {kb(page)} {kb(board.group(0) if board else '')}"
                f" {kb(legal.group(0) if legal else '')} {len(png) / 1024:8.1f} | {kb(watch)}"
            )


if __name__ == "__main__":
    main()
