"""pbem's rules engine: pure, deterministic game logic with no I/O.

from engine import Game
game = Game.new("taluva", ["Ann", "Bob"], seed="s3cret")
game.state.legal_moves(0)
game.play(0, "tile 0,0 0,-1 1,-1")
"""

from engine import games as _games  # noqa: F401  (registers the rulesets)
from engine.core.errors import EngineError, IllegalMove, RecordError, ReplayError
from engine.core.game import Game
from engine.core.record import LoggedMove, Record
from engine.core.registry import get_ruleset, rulesets
from engine.core.state import Result, State
from engine.core.trial import PartlyPlayed, Trial

__all__ = [
    "EngineError",
    "Game",
    "IllegalMove",
    "LoggedMove",
    "PartlyPlayed",
    "Record",
    "RecordError",
    "ReplayError",
    "Result",
    "State",
    "Trial",
    "get_ruleset",
    "rulesets",
]
