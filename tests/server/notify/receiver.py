"""A real HTTP receiver on loopback for the notification tests: it keeps every
request it gets and answers with the status the test sets."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
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
