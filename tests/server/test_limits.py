"""Abuse limits on a real app and Redis: refused with 429 and a message that
says why, and a flood stores no more than the limit allows. Low limits and
one trusted proxy, so each test is its own client by X-Forwarded-For."""

from __future__ import annotations

import http.client
import json
import logging
import threading
import uuid
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.serving import make_server

from pbem import create_app
from pbem.config import ConfigError
from pbem.leagues.leagues import create_league
from pbem.models import Game, InboundMessage, Outbox, User
from pbem.services import accounts
from tests.server.conftest import app_of_its_own
from tests.server.signed_in import sign_in

INBOUND_TOKEN = "door-secret"
SMALL_LIMITS = {
    "PBEM_SIGN_IN_LIMIT_PER_ADDRESS": "2 per hour",
    "PBEM_SIGN_IN_LIMIT_PER_CLIENT": "3 per hour",
    "PBEM_INVITATION_LIMIT": "2 per day",
    "PBEM_API_WRITE_LIMIT": "3 per minute",
    "PBEM_MAIL_INBOUND_LIMIT": "2 per minute",
}


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with app_of_its_own(
        tmp_path_factory.mktemp("limits"),
        WTF_CSRF_ENABLED=False,
        PBEM_TRUSTED_PROXIES=1,
        PBEM_INBOUND_TOKEN=INBOUND_TOKEN,
        PBEM_MAX_REQUEST_BYTES=20_000,
        PBEM_MAIL_MAX_BYTES=100_000,
        **SMALL_LIMITS,
    ) as app:
        yield app


def from_client(app: Flask) -> tuple[FlaskClient, dict[str, str]]:
    """A test client and the header that makes it a client address of its own."""
    address = "10." + ".".join(str(b) for b in uuid.uuid4().bytes[:3])
    return app.test_client(), {"X-Forwarded-For": address}


def fresh_email() -> str:
    return f"flood-{uuid.uuid4().hex[:8]}@example.org"


def count(app: Flask, model, *where) -> int:
    with app.extensions["pbem.db"].session() as session:
        return session.scalar(select(func.count()).select_from(model).where(*where))


def sign_in_mails(app: Flask, email: str) -> int:
    return count(
        app, Outbox, Outbox.kind == "sign_in", Outbox.recipient_id == User.id, User.email == email
    )


def user(app: Flask) -> User:
    with app.extensions["pbem.db"].session() as session:
        made = accounts.create_user(session, fresh_email(), "Ann")
        session.commit()
        session.refresh(made)
        session.expunge(made)
        return made


def test_sign_in_links_for_one_address_are_limited(limited):
    email = fresh_email()
    answers = []
    for _ in range(4):
        client, headers = from_client(limited)  # a new network each time: the address counts
        answers.append(client.post("/sign-in", data={"email": email}, headers=headers))
    assert [a.status_code for a in answers] == [200, 200, 429, 429]
    refused = answers[-1]
    page = refused.get_data(as_text=True)
    assert "Too many sign-in links were asked for this address" in page
    assert "at most 2 per hour" in page
    assert int(refused.headers["Retry-After"]) > 0
    assert sign_in_mails(limited, email) == 2


def test_sign_in_links_from_one_client_are_limited_by_its_forwarded_address(limited):
    client, headers = from_client(limited)
    emails = [fresh_email() for _ in range(5)]
    codes = [
        client.post("/sign-in", data={"email": e}, headers=headers).status_code for e in emails
    ]
    assert codes == [200, 200, 200, 429, 429]
    assert sum(sign_in_mails(limited, e) for e in emails) == 3
    assert "from your network" in client.post(
        "/sign-in", data={"email": fresh_email()}, headers=headers
    ).get_data(as_text=True)
    # Another visitor behind the same proxy is a client of its own.
    other, other_headers = from_client(limited)
    assert (
        other.post("/sign-in", data={"email": fresh_email()}, headers=other_headers).status_code
        == 200
    )
    # Asking for the page is no sign-in request.
    assert client.get("/sign-in", headers=headers).status_code == 200


def signed_in_client(app: Flask, someone: User) -> FlaskClient:
    return sign_in(app, app.test_client(), someone.id)


def test_invitations_are_limited_per_inviter_and_a_refused_game_is_not_made(limited):
    someone = user(limited)
    inviter = signed_in_client(limited, someone)
    invitees = [fresh_email() for _ in range(3)]
    answers = [
        inviter.post(
            "/games/new/taluva",
            data={"seat-0": "me", "seat-1": "invite", "invite-1": email, "option-tiles": "24"},
        )
        for email in invitees
    ]
    assert [a.status_code for a in answers] == [302, 302, 429]
    assert "You have sent too many invitations" in answers[-1].get_data(as_text=True)
    assert count(limited, Outbox, Outbox.kind == "invite") == 2
    assert count(limited, Game, Game.created_by_id == someone.id) == 2
    assert count(limited, User, User.email == invitees[-1]) == 0
    # A game with bots only sends no invitation and is not counted.
    bots = inviter.post("/games/new/taluva", data={"seat-0": "me", "seat-1": "bot:random"})
    assert bots.status_code == 302


def test_api_writes_are_limited_per_user_with_a_json_reason(limited):
    with limited.extensions["pbem.db"].session() as session:
        someone = accounts.create_user(session, fresh_email(), "Ann")
        token = accounts.issue_api_token(session, someone, "tests")
        session.commit()
    client = limited.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    body = {"ruleset": "taluva", "seats": ["me", "bot:random"]}
    codes = [client.post("/api/v1/games", json=body, headers=auth).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    refused = client.post("/api/v1/games", json=body, headers=auth)
    assert refused.status_code == 429
    assert refused.get_json()["message"].startswith("Too many changes through the API")
    assert "Retry-After" in refused.headers
    # Reading is not writing.
    assert client.get("/api/v1/games", headers=auth).status_code == 200
    # Without a valid token a write is refused as before, not counted for anybody.
    assert client.post("/api/v1/games", json=body).status_code == 401


def test_league_invitations_through_the_api_are_limited_per_user(limited):
    with limited.extensions["pbem.db"].session() as session:
        someone = accounts.create_user(session, fresh_email(), "Ann")
        league = create_league(session, someone, "Club", "taluva", 2)
        token = accounts.issue_api_token(session, someone, "tests")
        session.commit()
        url = f"/api/v1/leagues/{league.public_id}/entrants"
    client = limited.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    answers = [client.post(url, json={"email": fresh_email()}, headers=auth) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[-1].get_json()["message"].startswith("You have sent too many invitations")


def test_the_http_mail_door_is_limited_per_client(limited):
    client, headers = from_client(limited)
    headers["Authorization"] = f"Bearer {INBOUND_TOKEN}"
    codes = [
        client.post(
            "/mail/inbound",
            data=f"From: a@example.org\nMessage-ID: <{uuid.uuid4().hex}@x>\n\nhi\n".encode(),
            headers=headers,
        ).status_code
        for _ in range(3)
    ]
    assert codes == [202, 202, 429]
    assert count(limited, InboundMessage) >= 2


def test_request_bodies_over_the_cap_are_refused_with_the_cap(limited):
    with limited.extensions["pbem.db"].session() as session:
        someone = accounts.create_user(session, fresh_email(), "Ann")
        token = accounts.issue_api_token(session, someone, "tests")
        session.commit()
    client = limited.test_client()
    big = {"ruleset": "taluva", "seats": ["me", "bot:random"], "options": {"x": "y" * 30_000}}
    answer = client.post("/api/v1/games", json=big, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 413
    assert "larger than 20000 bytes" in answer.get_json()["message"]
    page = client.post("/sign-in", data={"email": "x" * 30_000})
    assert page.status_code == 413 and "larger than 20000 bytes" in page.get_data(as_text=True)
    # The mail door takes mail up to PBEM_MAIL_MAX_BYTES.
    mail_client, headers = from_client(limited)
    headers["Authorization"] = f"Bearer {INBOUND_TOKEN}"
    raw = f"Message-ID: <{uuid.uuid4().hex}@x>\n\n".encode() + b"x" * 50_000
    assert mail_client.post("/mail/inbound", data=raw, headers=headers).status_code == 202


def test_a_limit_that_does_not_parse_stops_the_app_with_its_name():
    with pytest.raises(ConfigError, match="PBEM_API_WRITE_LIMIT"):
        create_app({"PBEM_API_WRITE_LIMIT": "lots"})


@pytest.fixture
def served(limited: Flask) -> Iterator[int]:
    """The app behind Werkzeug's server, which reads chunked bodies as
    gunicorn does (the test client cannot send one); yields its port."""
    server = make_server("127.0.0.1", 0, limited, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.port
    server.shutdown()
    thread.join()


def post_chunked(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """POST `body` with Transfer-Encoding: chunked (no Content-Length)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        pieces = (body[i : i + 8192] for i in range(0, len(body), 8192))
        connection.request("POST", path, body=pieces, headers=headers, encode_chunked=True)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_chunked_bodies_over_the_cap_are_refused_not_cut(limited, served):
    door = {"Authorization": f"Bearer {INBOUND_TOKEN}", "X-Forwarded-For": "10.200.0.1"}
    small = f"Message-ID: <{uuid.uuid4().hex}@x>\n\n".encode() + b"x" * 60_000
    status, _ = post_chunked(served, "/mail/inbound", small, door)
    assert status == 202
    with limited.extensions["pbem.db"].session() as session:
        row = session.scalar(select(InboundMessage).order_by(InboundMessage.id.desc()))
        assert row.raw == small  # whole, though longer than PBEM_MAX_REQUEST_BYTES
    message_id = f"<{uuid.uuid4().hex}@x>"
    big = f"Message-ID: {message_id}\n\n".encode() + b"x" * 150_000
    status, text = post_chunked(served, "/mail/inbound", big, door)
    assert status == 413 and b"larger than 100000 bytes" in text
    assert count(limited, InboundMessage, InboundMessage.message_id == message_id) == 0
    with limited.extensions["pbem.db"].session() as session:
        someone = accounts.create_user(session, fresh_email(), "Ann")
        token = accounts.issue_api_token(session, someone, "tests")
        session.commit()
    game = {"ruleset": "taluva", "seats": ["me", "bot:random"], "options": {"x": "y" * 30_000}}
    api = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    status, text = post_chunked(served, "/api/v1/games", json.dumps(game).encode(), api)
    assert status == 413 and b"larger than 20000 bytes" in text


def test_a_write_without_a_token_is_refused_without_an_error_in_the_log(limited, caplog):
    client = limited.test_client()
    with limited.extensions["pbem.db"].session() as session:
        league = create_league(
            session, accounts.create_user(session, fresh_email(), "Ann"), "C", "taluva", 2
        )
        session.commit()
        entrants = f"/api/v1/leagues/{league.public_id}/entrants"
    game = {"ruleset": "taluva", "seats": ["me", "bot:random"]}
    with caplog.at_level(logging.WARNING):
        assert client.post("/api/v1/games", json=game).status_code == 401
        assert client.post(entrants, json={"email": fresh_email()}).status_code == 401
        bad = {"Authorization": "Bearer not-a-token"}
        assert client.post("/api/v1/games", json=game, headers=bad).status_code == 401
        assert client.get("/api/v1/games").status_code == 401
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
