"""The bots a seat can have, by level name."""

from __future__ import annotations

from engine.bots.base import Bot
from engine.bots.greedy import GreedyBot
from engine.bots.random_play import RandomBot
from engine.bots.search import SearchBot
from engine.bots.strategy import strategy_for

# Weakest first. `random` stays for tests and load; the others are what
# people meet: one move of look-ahead, then searches of growing budget.
LEVELS = ("random", "easy", "medium", "strong")
DEFAULT_LEVEL = "medium"


def make_bot(level: str, ruleset: str, key: str) -> Bot:
    """The bot of `level` for a ruleset, its randomness seeded by `key`."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    if level == "random":
        return RandomBot(key)
    strategy = strategy_for(ruleset)
    own = strategy.bot(level, key)
    if own is not None:
        return own
    if level == "easy":
        return GreedyBot(key, strategy)
    return SearchBot(key, strategy, strategy.budgets[level])


def decision_key(seed: str, seat: int, ply: int) -> str:
    """A bot's randomness for one decision: the same game, seat and ply give
    the same move. The seed only seeds the bot's own stream; the bot never
    sees the game's draws (`engine.bots.hidden`)."""
    return f"{seed}/bot/{seat}/{ply}"
