"""A test client that sends forms the way a browser does: with the CSRF
token read from the page it last loaded."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

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
