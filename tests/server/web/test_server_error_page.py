"""A page that fails answers 500 with a page of the site (its style sheet and
header) in the browser's language, drawn without the database, which may be
what failed; the API still answers its own JSON."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from pbem.db import get_db


@pytest.fixture
def database_gone(app, monkeypatch):
    """Called, every statement fails from then on, as when the database is
    gone; the errors reach the pages' handlers as in production, not the test."""
    with app.app_context():
        engine = get_db().engine

    def gone(_connection, _cursor, statement, parameters, *_rest):
        raise OperationalError(statement, parameters, ConnectionRefusedError("database gone"))

    def from_now() -> None:
        monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)
        event.listen(engine, "before_cursor_execute", gone)

    yield from_now
    if event.contains(engine, "before_cursor_execute", gone):
        event.remove(engine, "before_cursor_execute", gone)


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Server error"), ("fr", "Erreur du serveur"), ("cs", "Chyba serveru")],
)
def test_a_failed_page_is_a_styled_page_in_the_browsers_language(
    make_user, signed_in_as, database_gone, language, title
):
    browser = signed_in_as(make_user("Ann"))
    database_gone()  # her sign-in cannot be read either
    answer = browser.client.get("/", headers={"Accept-Language": language})
    assert answer.status_code == 500
    page = answer.get_data(as_text=True)
    assert f'<html lang="{language}">' in page and "/assets/pbem.css" in page
    assert '<a class="brand" href="/">pbem</a>' in page and f"<h1>{title}</h1>" in page
    assert "Internal Server Error" not in page


def test_the_api_answers_a_failure_in_json(app, make_user, token_for, database_gone):
    token = token_for(make_user("Ann"))
    database_gone()
    answer = app.test_client().get(
        "/api/v1/games/no-such-game", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 500
    assert answer.get_json()["code"] == 500
