"""The rulesets; importing a game's package registers it."""

from engine.games import java, samurai, taluva  # noqa: F401
