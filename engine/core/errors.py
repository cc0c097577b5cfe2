"""Errors the engine raises; every message is meant for the player who caused it.

Each error built with `of` carries a registered message (an id and its
parameters, see `engine.core.messages`) beside its English text, so a server
can show it in the player's language; `str(error)` stays the English text.
"""

from __future__ import annotations

from typing import Self

from engine.core import message_texts  # noqa: F401  (the templates used here)
from engine.core.messages import Message, Param, is_word

Argument = Param | Message | tuple[Message, ...]


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    message: Message | None = None

    @classmethod
    def of(cls, code: str, /, **params: Argument) -> Self:
        """The error of a registered message, e.g. `RecordError.of("record.not_json", ...)`."""
        message = Message(code, params)
        error = cls(message.text())
        error.message = message
        return error


class IllegalMove(EngineError):
    """A move that is malformed or breaks a rule; `rule` names the rule broken."""

    def __init__(self, reason: str | Message, rule: str | None = None) -> None:
        super().__init__(reason)
        self._text: str | None = None
        if isinstance(reason, Message):
            self.message = reason
        else:
            self._text = reason
        self.rule = rule

    @property
    def reason(self) -> str:
        """The English text, written out when first read: legal-move lists
        and bots build thousands of refusals that nobody reads."""
        if self._text is None:
            assert self.message is not None
            self._text = self.message.text()
        return self._text

    @classmethod
    def of(cls, code: str, /, rule: Argument | None = None, **params: Argument) -> Self:
        """A refusal by message id, e.g. `IllegalMove.of("taluva.no_land", space="2,-1")`;
        `rule` is a registered word (see `messages.words`): typed as any
        parameter, as `EngineError.of` takes one by that name too."""
        if rule is not None and (not isinstance(rule, str) or not is_word(rule)):
            raise ValueError(f"rule {rule!r} is not a registered word (messages.words)")
        return cls(Message(code, params), rule)

    def with_rule(self, rule: str | None) -> Self:
        """The same refusal under another rule's name."""
        return type(self)(self.message or self.reason, rule)

    def quoted(self) -> Message:
        """The whole refusal, its rule included, as a parameter of another message."""
        inner = self.message or Message("turn.plain", {"text": self.reason})
        if self.rule is None:
            return inner
        return Message("turn.with_rule", {"reason": inner, "rule": self.rule})

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
