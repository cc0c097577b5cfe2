"""Play by email: outbound notifications from the outbox, and three inbound
doors (IMAP poller, SMTP/LMTP listener, HTTP endpoint) into one pipeline.

compose.py writes a mail (from game_views.py: a batch's replays and boards,
made once), transport.py hands it on, send.py runs the outbox in batches;
inbound.py reads what comes in, commands.py carries out what it asks;
tasks.py holds the Celery tasks.
"""

from __future__ import annotations

from flask import Flask

from pbem.mail.http import blp


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)
