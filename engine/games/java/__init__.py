"""Java (Kramer & Kiesling): importing this package registers the ruleset and its bots' strategy."""

from engine.games.java import strategy  # noqa: F401
from engine.games.java.state import JavaState

__all__ = ["JavaState"]
