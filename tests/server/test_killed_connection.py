"""A database connection PostgreSQL kills (a restart, a failover, an
administrator's pg_terminate_backend) costs a reader nothing: between two
requests the pool notices and connects again, and a read it dies under is run
again on a new connection. A write it dies under is not repeated."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import DBAPIError

from pbem.services import accounts
from tests.server.signed_in import sign_in


@pytest.fixture
def ann_by_api(postgres_only, session, make_user):
    """A test client, Ann's token header, and Ann."""
    ann = make_user("Ann")
    token = accounts.issue_api_token(session, ann, "tests")
    session.commit()
    return postgres_only.test_client(), {"Authorization": f"Bearer {token}"}, ann


def test_the_request_after_its_connection_was_killed_answers(postgres_only, ann_by_api):
    app = postgres_only
    client, auth, _ = ann_by_api
    assert client.get("/api/v1/settings", headers=auth).status_code == 200
    pool = app.extensions["pbem.db"].engine.pool
    assert pool.checkedin() >= 1  # the connection the request used waits for the next one
    # From outside the app's pool: every connection it holds is killed.
    admin = create_engine(app.config["PBEM_DATABASE_URL"], poolclass=None)
    with admin.connect() as connection:
        killed = connection.scalar(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    admin.dispose()
    assert killed >= pool.checkedin()
    answers = [client.get("/api/v1/settings", headers=auth).status_code for _ in range(3)]
    assert answers == [200, 200, 200]


@contextmanager
def killed_at_its_next_statement(app):
    """PostgreSQL kills the connection of the app's next statement just before
    it runs, as a restart or failover would in the middle of a request."""
    admin = create_engine(app.config["PBEM_DATABASE_URL"], poolclass=None)
    engine = app.extensions["pbem.db"].engine
    killed: list[int] = []

    def kill(connection, *_args) -> None:
        if killed:
            return
        pid = connection.connection.dbapi_connection.info.backend_pid
        killed.append(pid)
        with admin.connect() as other:  # waits up to 10 s for the backend to be gone
            gone = other.scalar(text("SELECT pg_terminate_backend(:pid, 10000)"), {"pid": pid})
        assert gone

    event.listen(engine, "before_cursor_execute", kill)
    try:
        yield killed
    finally:
        event.remove(engine, "before_cursor_execute", kill)
        admin.dispose()


def test_a_read_whose_connection_dies_mid_request_is_answered(postgres_only, ann_by_api):
    app = postgres_only
    client, auth, ann = ann_by_api
    with killed_at_its_next_statement(app) as killed:
        answer = client.get("/api/v1/settings", headers=auth)
    assert killed
    assert answer.status_code == 200
    assert answer.get_json()["email"] == ann.email
    sign_in(app, client, ann.id)
    with killed_at_its_next_statement(app) as killed:
        page = client.get("/")
    assert killed
    assert page.status_code == 200
    assert "My games" in page.get_data(as_text=True)


def test_a_write_whose_connection_dies_is_not_repeated(postgres_only, ann_by_api):
    app = postgres_only
    client, auth, _ = ann_by_api
    with killed_at_its_next_statement(app), pytest.raises(DBAPIError):
        client.patch("/api/v1/settings", json={"name": "Anna"}, headers=auth)
    assert client.get("/api/v1/settings", headers=auth).get_json()["name"] == "Ann"
