"""Page tests run on the server tests' real services: both databases, Redis
and one Celery worker thread per database (the fixtures of tests/server/conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.models import User

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Browser:
    """A test client that fills in the CSRF token the way a browser sends it:
    read from the form of the page it last loaded."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.token: str | None = None

    def get(self, url: str, **kwargs):
        return self._keep_token(self.client.get(url, **kwargs))

    def post(self, url: str, data: dict | None = None, **kwargs):
        if self.token is None:
            self.get("/sign-in")
        form = {"csrf_token": self.token, **(data or {})}
        return self._keep_token(self.client.post(url, data=form, **kwargs))

    def _keep_token(self, response):
        found = response.mimetype == "text/html" and CSRF.search(response.get_data(as_text=True))
        if found:
            self.token = found.group(1)
        return response


@pytest.fixture
def browser(app: Flask) -> Browser:
    return Browser(app.test_client())


@pytest.fixture
def signed_in_as(app: Flask) -> Callable[[User], Browser]:
    """A browser whose session already belongs to the user (the sign-in flow
    itself is tested in test_sign_in.py)."""

    def sign_in(user: User) -> Browser:
        client = app.test_client()
        with client.session_transaction() as flask_session:
            flask_session["_user_id"] = str(user.id)
            flask_session["_fresh"] = True
        return Browser(client)

    return sign_in
