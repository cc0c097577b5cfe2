"""A suspension that commits while a browser's request waits on it: the
race of a mailed link followed as an administrator suspends its account."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from sqlalchemy import text

from pbem.accounts.suspension import suspend
from pbem.models import User
from tests.server.conftest import wait_for
from tests.server.csrf_browser import Browser
from tests.server.postgres_locks import blocked_by


def post_while_suspending(app: Flask, browser: Browser, path: str, user_id: int) -> Any:
    """The browser's answer to posting `path` (a link's button), sent while
    an administrator's suspension of the user holds the user's lock and
    committed once the request waits on it (PostgreSQL only)."""
    database = app.extensions["pbem.db"]
    answers = []
    with app.app_context(), database.session() as admin:
        suspend(admin, admin.get(User, user_id))
        holder = admin.scalar(text("SELECT pg_backend_pid()"))
        following = threading.Thread(target=lambda: answers.append(browser.post(path)))
        following.start()
        wait_for(lambda: blocked_by(database.engine, holder), 30, "the request to wait")
        admin.commit()
    following.join(30)
    return answers[0]
