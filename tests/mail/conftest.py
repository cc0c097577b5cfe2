"""The app wired to real mail servers: outbound mail goes by SMTP to an
aiosmtpd capture, replies come in through the pbem SMTP listener and through
a private Dovecot the IMAP poller reads, and a Celery worker thread does the rest."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from sqlalchemy.orm import Session

from pbem import create_app, migrate
from pbem.db import get_db
from pbem.mail.smtpd import controller as listener_controller
from pbem.models import Game, User
from tests.mail.servers import Capture, ImapServer, capture_controller, dovecot, free_port
from tests.server.conftest import (  # noqa: F401
    REDIS_URL,
    database_url,
    forget_queues,
    make_user,
    own_queues,
    postgres_url,
)
from tests.server.pipeline_helpers import start_game
from worker.embedded import worker_threads

DOMAIN = "pbem.test"
OUR_HOST = "mx.pbem.test"  # the authserv-id of our receiving host


@dataclass
class MailRig:
    app: Flask
    capture: Capture
    outgoing: Controller  # the capture's server, which tests stop and start
    outgoing_port: int
    listener_port: int


@pytest.fixture(scope="session")
def imap_server() -> Iterator[ImapServer]:
    with dovecot() as server:
        yield server


@pytest.fixture(scope="session")
def rig(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[MailRig]:
    outgoing_port, listener_port = free_port(), free_port()
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": database_url(request.param, request, tmp_path_factory),
            "PBEM_BROKER_URL": REDIS_URL,
            **own_queues("pbem-mail-test"),
            "PBEM_SMTP_URL": f"smtp://127.0.0.1:{outgoing_port}",
            "PBEM_MAIL_DOMAIN": DOMAIN,
            "PBEM_INBOUND_TOKEN": "inbound-secret",
            "PBEM_MAIL_MAX_BYTES": 200_000,
            # One rig serves every test: the refusals of them all must not
            # reach the cap (the tests of the cap set it lower).
            "PBEM_REFUSAL_LIMIT_TOTAL": "10000 per hour",
        }
    )
    with app.app_context():
        migrate.upgrade(get_db().engine)
    listener = listener_controller(app, "127.0.0.1", listener_port)
    listener.start()
    capture = Capture()
    rig = MailRig(
        app,
        capture,
        capture_controller(capture, outgoing_port),
        outgoing_port,
        listener_port,
    )
    rig.outgoing.start()
    with worker_threads(app):
        yield rig
    rig.outgoing.stop()  # the one running now: a test may have restarted it
    listener.stop()
    with app.app_context():
        get_db().dispose()
    forget_queues(app)


@pytest.fixture
def imap(rig: MailRig, imap_server: ImapServer, monkeypatch: pytest.MonkeyPatch) -> ImapServer:
    """The private Dovecot as the rig's mailbox (PBEM_IMAP_URL): only the tests
    that read mail by IMAP start it, and they are `system` tests."""
    monkeypatch.setitem(rig.app.config, "PBEM_IMAP_URL", imap_server.url)
    return imap_server


@pytest.fixture
def session(rig: MailRig) -> Iterator[Session]:
    with rig.app.extensions["pbem.db"].session() as db_session:
        yield db_session


@pytest.fixture
def game_of_two(
    rig: MailRig,
    session: Session,
    make_user: Callable[..., User],  # noqa: F811
) -> tuple[Game, User, User]:
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    return game, ann, bob


@pytest.fixture
def trusting_our_host(rig: MailRig, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker reads the rig's app config: trust our receiving host's headers."""
    monkeypatch.setitem(rig.app.config, "PBEM_MAIL_AUTHSERV_ID", OUR_HOST)
