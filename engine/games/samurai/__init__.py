"""Samurai (Reiner Knizia): importing the package registers the ruleset."""

from engine.games.samurai.state import SamuraiState

__all__ = ["SamuraiState"]
