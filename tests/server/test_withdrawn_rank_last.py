"""A player who leaves a game (resigns, or loses the seat on time) ranks last,
on every surface, whatever the bot playing the seat on achieves."""

from __future__ import annotations

from sqlalchemy import select

from pbem.models import Game, GameStatus, Outbox
from pbem.services.bot_thinking import ask_bots
from pbem.services.replay import engine_game
from pbem.services.resign import resign
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import start_game


def test_a_resigned_player_ranks_last_in_result_view_and_mail(app, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob, "bot"])
    ann_seat = game.seats[0]
    resign(session, ann_seat)
    session.commit()
    # Bob lets a bot play for him but stays in the game, so he hears the result.
    game.seats[1].bot = "random"
    ask_bots(session, game)
    session.commit()

    def finished() -> bool:
        session.expire_all()
        return session.get(Game, game.id).status == GameStatus.FINISHED

    wait_for(finished, timeout=90, what="the bots to finish the game")
    stored = session.get(Game, game.id)
    played = engine_game(stored)
    ranking = played.result().ranking
    assert ranking[-1] == (0,) and 0 not in played.result().winners
    assert played.to_record().withdrawn == [0]
    assert played.view(1)["result"]["ranking"][-1] == [0]
    over = session.scalars(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "game_over")
    ).all()
    assert [row.recipient_id for row in over] == [bob.id]
    assert over[0].payload["result"]["ranking"][-1] == [0]
