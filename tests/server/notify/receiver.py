"""Real HTTP receivers on loopback for the notification tests: one keeps every
request it gets and answers with the status the test sets; another answers a
byte at a time, as a hostile receiver would."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    url: str
    allowed: str = ""  # PBEM_WEBHOOK_ALLOWED_NETWORKS that opens this receiver alone
    status: int = 200
    answer: bytes = b"ok"
    requests: list[Received] = field(default_factory=list)


class _IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


@contextmanager
def receiving(host: str = "127.0.0.1") -> Iterator[Receiver]:
    """A receiver on `host` (an IPv4 or IPv6 loopback address) and a free port."""
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def _any(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            receiver.requests.append(Received(self.command, self.path, dict(self.headers), body))
            self.send_response(receiver.status)
            self.send_header("Content-Length", str(len(receiver.answer)))
            self.end_headers()
            self.wfile.write(receiver.answer)

        do_POST = do_PUT = _any

        def log_message(self, *_args: Any) -> None:
            pass

    ipv6 = ":" in host
    server = (_IPv6Server if ipv6 else ThreadingHTTPServer)((host, 0), Handler)
    written = f"[{host}]" if ipv6 else host
    receiver.url = f"http://{written}:{server.server_address[1]}"
    receiver.allowed = f"{written}:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Dripper:
    """A receiver that answers a byte at a time, each `interval` seconds after
    the last, for as long as the client listens or until `release`d."""

    url: str
    interval: float
    connections: int = 0  # accepted so far
    open: int = 0  # still dripping
    released: threading.Event = field(default_factory=threading.Event)
    changed: threading.Condition = field(default_factory=threading.Condition)

    @property
    def allowed(self) -> str:
        """PBEM_WEBHOOK_ALLOWED_NETWORKS that opens this receiver alone."""
        return self.url.removeprefix("http://")

    def release(self) -> None:
        """Every connection, now and later, is closed at once."""
        self.released.set()

    def wait_for_open(self, count: int, timeout: float = 30) -> None:
        """Until `count` connections are open at once."""
        self.wait_until(lambda: self.open >= count, f"{count} connections open", timeout)

    def wait_until(self, condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
        with self.changed:
            if not self.changed.wait_for(condition, timeout):
                raise AssertionError(f"timed out waiting for {what} ({self.open} open)")


ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" * 1000


@contextmanager
def dripping(interval: float = 0.5, host: str = "127.0.0.1") -> Iterator[Dripper]:
    """Each connection gets its request read and then an answer dribbled out:
    never a whole one, so only a deadline on the whole request ends it."""
    listener = socket.create_server((host, 0))
    dripper = Dripper(url=f"http://{host}:{listener.getsockname()[1]}", interval=interval)

    def drip(connection: socket.socket) -> None:
        with dripper.changed:
            dripper.connections += 1
            dripper.open += 1
            dripper.changed.notify_all()
        try:
            connection.recv(65536)
            for byte in ANSWER:
                if dripper.released.wait(dripper.interval):
                    break
                connection.sendall(bytes([byte]))
        except OSError:
            pass  # the client hung up: what a deadline does
        finally:
            connection.close()
            with dripper.changed:
                dripper.open -= 1
                dripper.changed.notify_all()

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return  # closed
            threading.Thread(target=drip, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield dripper
    finally:
        dripper.release()
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        listener.close()
