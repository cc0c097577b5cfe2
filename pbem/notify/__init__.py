"""Notices where players are, beside mail: webhooks (Discord, Slack, Matrix,
signed JSON) for a player's turns and an organiser's games and leagues, and
browser push (pbem.notify.push), built
on the game's events (pbem.signals): rows written in the change's own
transaction, posted by the worker after it commits."""

from __future__ import annotations

from flask import Flask

from pbem.notify import events, push


def init_app(app: Flask) -> None:
    events.init_app(app)
    push.init_app(app)
