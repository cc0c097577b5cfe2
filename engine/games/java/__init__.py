"""Java (Kramer & Kiesling): importing this package registers the ruleset."""

from engine.games.java.state import JavaState

__all__ = ["JavaState"]
