"""Errors the engine raises; every message is meant for the player who caused it."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalMove(EngineError):
    """A move that is malformed or breaks a rule; `rule` names the rule broken."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.reason} [{self.rule}]" if self.rule else self.reason


class RecordError(EngineError):
    """A game record file that cannot be read or names an unknown ruleset."""


class ReplayError(EngineError):
    """A record whose log holds a move that the rules refuse."""

    def __init__(self, ply: int, seat: int, seat_name: str, text: str, reason: str) -> None:
        super().__init__(f"move {ply} by seat {seat} ({seat_name}) {text!r}: {reason}")
        self.ply = ply
        self.seat = seat
        self.text = text
        self.reason = reason
