"""Bots at levels, each seeing only its own seat: `make_bot(level, ruleset, key)`."""

from engine.bots.base import Bot
from engine.bots.levels import DEFAULT_LEVEL, LEVELS, decision_key, make_bot

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "decision_key", "make_bot"]
