"""Bots choose their moves here and send them as ordinary submissions."""

from __future__ import annotations

import engine
from engine.bots.random_play import KindsBot, RandomBot

MAX_BOT_MOVES = 50  # one turn of any game is far shorter
# A seat's bot: "random" picks among the legal moves; "kinds" first picks a
# kind of move, so it also builds, draws and holds festivals where "random"
# mostly walks its pieces about.
BOTS: dict[str, type[RandomBot]] = {"random": RandomBot, "kinds": KindsBot}
# The seat choices of the new-game form and the API, and the bot each seats.
SEAT_BOTS = {"bot": "random", "kinds-bot": "kinds"}


def bot_turn(
    game: engine.Game, position: int, bot_name: str = "random", *, one_decision: bool = False
) -> list[str]:
    """The moves a bot makes while it is its turn, chosen on a copy;
    `one_decision`: only until the decision it is asked for is made (a seat
    may act again at once in a new decision, which then is not the bot's).

    The bot's randomness comes from the game's seed and the ply, so replaying
    a game reproduces the bots' choices too.
    """
    trial = game.copy()
    bot = BOTS[bot_name](f"{game.seed}/bot/{position}/{len(game.log)}")
    texts: list[str] = []
    while position in trial.state.to_act() and len(texts) < MAX_BOT_MOVES:
        trial.push(position, bot.choose(trial.state, position))
        texts.append(trial.log[-1].text)
        if one_decision and not trial.state.turn_goes_on(position):
            break
    return texts
