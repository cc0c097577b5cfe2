"""Taluva (Marcel-André Casasola-Merkle)."""

from engine.games.taluva import strategy  # noqa: F401  (registers the bots' strategy)
from engine.games.taluva.state import TaluvaState

__all__ = ["TaluvaState"]
