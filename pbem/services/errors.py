"""Errors a service raises for its caller to turn into a page, an API answer or a mail."""

from __future__ import annotations


class ServiceError(Exception):
    """Base: the message is meant for the person who asked."""


class NotFound(ServiceError):
    """Unknown, or not visible to this person: the two look the same on purpose."""


class Forbidden(ServiceError):
    """Visible to this person, but theirs to see only: an organiser's action asked by a player."""


class Conflict(ServiceError):
    """The request clashes with the game's current state (seat taken, turn waiting)."""


class Invalid(ServiceError):
    """The request itself is unusable (bad e-mail, unknown time zone, bad seat list)."""


class BadForm(ServiceError):
    """A form the pages never send: damaged, tampered with or made by hand."""
