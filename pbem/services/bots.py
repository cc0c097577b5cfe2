"""Bots choose their moves here and send them as ordinary submissions."""

from __future__ import annotations

import engine
from engine.core.bot import RandomBot

MAX_BOT_MOVES = 50  # one turn of any game is far shorter


def bot_turn(game: engine.Game, position: int) -> list[str]:
    """The moves a bot makes while it is its turn, chosen on a copy.

    The bot's randomness comes from the game's seed and the ply, so replaying
    a game reproduces the bots' choices too.
    """
    trial = game.copy()
    bot = RandomBot(f"{game.seed}/bot/{position}/{len(game.log)}")
    texts: list[str] = []
    while position in trial.state.to_act() and len(texts) < MAX_BOT_MOVES:
        trial.push(position, bot.choose(trial.state, position))
        texts.append(trial.log[-1].text)
    return texts
