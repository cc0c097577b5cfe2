"""Samurai (Reiner Knizia): importing the package registers the ruleset and its bots' strategy."""

from engine.games.samurai import strategy
from engine.games.samurai.state import SamuraiState

__all__ = ["SamuraiState", "strategy"]
