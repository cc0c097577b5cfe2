"""Real mail servers on loopback for the mail tests: a private Dovecot IMAP
instance (Debian's dovecot-imapd, installed by deploy/test-services.sh) and
aiosmtpd capturing what the server sends."""

from __future__ import annotations

import asyncio
import itertools
import pwd
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from aiosmtpd.controller import Controller

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
MAIL_USER = "nobody"
REFUSED_DOMAIN = "refused.test"
GREYLISTED_DOMAIN = "greylisted.test"  # Dovecot will not run mail processes as root


# Ports for servers a test starts: below the range the system hands out to
# outgoing connections (Linux's ip_local_port_range, 32768-60999 by default),
# so none of the many connections the other test processes open takes the port
# between choosing it and the server binding it (nginx, started seconds after
# its ports were chosen, once found its port taken).
SERVER_PORTS = range(20000, 32768)


def free_port() -> int:
    """A loopback port free now, outside the outgoing connections' range."""
    while True:
        port = random.choice(SERVER_PORTS)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


@contextmanager
def silent_port() -> Iterator[int]:
    """A loopback port where a connection is never answered, as behind a
    firewall that drops packets: its listener's queue is full and never
    read, so the system drops each new connection's first packet."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", free_port()))
        listener.listen(0)
        port = listener.getsockname()[1]
        queued = [socket.socket() for _ in range(4)]
        try:
            for client in queued:
                client.setblocking(False)
                client.connect_ex(("127.0.0.1", port))
            yield port
        finally:
            for client in queued:
                client.close()


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port}")


@dataclass(frozen=True)
class ImapServer:
    port: int
    user: str
    password: str

    @property
    def url(self) -> str:
        return f"imap://{self.user}:{self.password}@127.0.0.1:{self.port}/INBOX"


@contextmanager
def dovecot() -> Iterator[ImapServer]:
    """A Dovecot of our own: its own config, port, users and maildirs in a
    folder the unprivileged mail user can reach (pytest's tmp_path is root-only)."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    folder.chmod(0o755)
    nobody = pwd.getpwnam(MAIL_USER)
    port = free_port()
    for sub in ("run", "state", "mail"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    shutil.chown(folder / "mail", nobody.pw_uid, nobody.pw_gid)
    (folder / "users").write_text("club:{PLAIN}secret\n")
    config = folder / "dovecot.conf"
    config.write_text(
        f"""
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = {nobody.pw_uid}
mail_location = maildir:{folder}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/users
}}
userdb {{
  driver = static
  args = uid={nobody.pw_uid} gid={nobody.pw_gid} home={folder}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service pop3-login {{
  inet_listener pop3 {{
    port = 0
  }}
}}
"""
    )
    process = subprocess.Popen([DOVECOT, "-F", "-c", str(config)])
    try:
        wait_for_port(port)
        yield ImapServer(port, "club", "secret")
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


class Capture:
    """aiosmtpd handler keeping every message the server sends, for tests to
    take, and the number of the connection each came by (by Message-ID).
    Like a real server it refuses recipients it has no mailbox for (those at
    REFUSED_DOMAIN), and greylists: it answers the first delivery of each
    message to GREYLISTED_DOMAIN with "try again later"."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.changed = threading.Condition()
        self.connection_of: dict[str, int] = {}
        self._connections: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
        self._numbers = itertools.count(1)
        self._greylisted: set[str] = set()

    async def handle_RCPT(self, server, session, envelope, address, options) -> str:
        if address.endswith("@" + REFUSED_DOMAIN):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        parsed = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        message_id = str(parsed["Message-ID"])
        greylisted = any(a.endswith("@" + GREYLISTED_DOMAIN) for a in envelope.rcpt_tos)
        if greylisted and message_id not in self._greylisted:
            self._greylisted.add(message_id)
            return "451 4.7.1 greylisted, try again later"
        with self.changed:
            if session not in self._connections:  # aiosmtpd makes one session per connection
                self._connections[session] = next(self._numbers)
            self.connection_of[message_id] = self._connections[session]
            self.messages.append(parsed)
            self.changed.notify_all()
        return "250 OK"

    def take(
        self, matches: Callable[[EmailMessage], bool] = lambda _m: True, timeout: float = 30.0
    ) -> EmailMessage:
        """The first message that `matches`, removed from the capture; waits for it."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for message in self.messages:
                    if matches(message):
                        self.messages.remove(message)
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    subjects = [str(m["Subject"]) for m in self.messages]
                    raise AssertionError(f"no matching mail within {timeout} s; have {subjects}")
                self.changed.wait(left)


class GoesDown(Capture):
    """A server that takes `accepts` messages, then answers the next with 421
    and stops listening, as a server shutting down does."""

    def __init__(self, accepts: int) -> None:
        super().__init__()
        self.accepts = accepts
        self.listener: asyncio.AbstractServer | None = None  # set once its controller runs

    async def handle_DATA(self, server, session, envelope) -> str:
        if len(self.messages) < self.accepts:
            return await super().handle_DATA(server, session, envelope)
        assert self.listener is not None
        self.listener.close()
        return "421 4.3.2 shutting down"


class OneMessagePerConnection(Capture):
    """A server that closes each connection once it has taken a message, as
    servers with a limit of messages per connection, or a short idle timeout, do."""

    async def handle_DATA(self, server, session, envelope) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        session.loop.call_soon(server.transport.close)  # once the answer is written
        return answer


def capture_controller(capture: Capture, port: int) -> Controller:
    return Controller(capture, hostname="127.0.0.1", port=port)


@contextmanager
def serving(handler: Capture, port: int) -> Iterator[Controller]:
    """An SMTP server with `handler` on `port` while the block runs."""
    controller = capture_controller(handler, port)
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


@contextmanager
def going_down(port: int, accepts: int) -> Iterator[GoesDown]:
    """A GoesDown server on `port` while the block runs."""
    handler = GoesDown(accepts)
    with serving(handler, port) as controller:
        handler.listener = controller.server
        yield handler
