"""A database connection PostgreSQL killed between two requests (a restart, a
failover, an administrator's pg_terminate_backend) costs the next request
nothing: the pool notices and connects again."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from pbem.services import accounts


def test_the_request_after_its_connection_was_killed_answers(postgres_only, session, make_user):
    app = postgres_only
    token = accounts.issue_api_token(session, make_user("Ann"), "tests")
    session.commit()
    client = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
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
