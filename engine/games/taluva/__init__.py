"""Taluva (Marcel-André Casasola-Merkle)."""

from engine.games.taluva.state import TaluvaState

__all__ = ["TaluvaState"]
