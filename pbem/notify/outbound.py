"""Requests to addresses people give us (webhooks, push services), made so
that nobody can point pbem at its own network: the name is resolved once,
every address it resolves to must be public (or in
PBEM_WEBHOOK_ALLOWED_NETWORKS, on a port it names), and the connection goes
to that checked address, so a second resolution cannot swap it. Redirects
are not followed (a 3xx is the receiver's answer), the whole request
(connecting, the TLS handshake, sending and reading the answer together)
ends after PBEM_WEBHOOK_TIMEOUT_SECONDS, however the receiver dribbles its
bytes, and at most ANSWER_BYTES of the answer are read."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import SplitResult, urlsplit

from pbem.config import allowed_networks

ANSWER_BYTES = 1024
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# Private use: RFC 1918, IPv6 unique local and the site-local addresses
# RFC 3879 deprecated (fec0::/10, which ipaddress counts as global).
PRIVATE_USE = tuple(
    ipaddress.ip_network(text)
    for text in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10")
)
# IPv6 forms that carry an IPv4 address, which a gateway reaches (6to4 and
# Teredo, 2002::/16 and 2001::/32, ipaddress reads itself): see _embedded.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052's well-known prefix
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215, local use
LAST_32_BITS = (
    NAT64,
    ipaddress.IPv6Network("::ffff:0:0:0/96"),  # SIIT's IPv4-translated (RFC 2765)
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (RFC 4291, deprecated)
)
# Not IPv4-compatible though in ::/96: "none" and loopback, judged as themselves.
NOT_COMPATIBLE = (ipaddress.IPv6Address("::"), ipaddress.IPv6Address("::1"))


class Why(StrEnum):
    """Why an address may not be asked, as a fixed class a person may be told
    (hooks.refusal words it): never more of the network than that."""

    NOT_AN_ADDRESS = "not_an_address"  # unreadable, a port that is not one, credentials
    NOT_HTTP = "not_http"
    UNRESOLVED = "unresolved"
    LOOPBACK = "loopback"
    PRIVATE = "private"
    LINK_LOCAL = "link_local"
    NOT_PUBLIC = "not_public"  # shared, reserved, documentation, multicast ...


class Refused(Exception):
    """The address may not be asked: not http(s), or not a public address."""

    def __init__(self, message: str, why: Why = Why.NOT_PUBLIC) -> None:
        super().__init__(message)
        self.why = why


@dataclass(frozen=True)
class Answer:
    status: int
    text: str  # at most ANSWER_BYTES of the body, decoded leniently


def failure(problem: BaseException | int) -> str:
    """What a user is told of a failed request: a fixed class, never the
    receiver's words nor the system's, which would let anyone who may add a
    hook read answers and probe ports of the networks pbem reaches."""
    if isinstance(problem, int):
        return f"HTTP {problem}"
    if isinstance(problem, Refused):
        return f"address not allowed: {problem.why.replace('_', ' ')}"
    if isinstance(problem, TimeoutError):
        return "timed out"
    if isinstance(problem, ConnectionRefusedError):
        return "refused"
    if isinstance(problem, ssl.SSLError):
        return "TLS failed"
    return "failed"


def checked(url: str, config: Mapping[str, Any]) -> tuple[SplitResult, Address]:
    """The URL's parts and the one address to connect to; Refused if any
    address the name resolves to is not public, nor allowed on that port."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:  # a port that is not one
        raise Refused(f"not an address: {url}", Why.NOT_AN_ADDRESS) from exc
    if parts.scheme not in ("http", "https"):
        raise Refused(f"not an http(s) address: {url}", Why.NOT_HTTP)
    if not parts.hostname or parts.username:
        raise Refused(f"not an address without credentials: {url}", Why.NOT_AN_ADDRESS)
    try:
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(f"{parts.hostname} does not resolve: {exc}", Why.UNRESOLVED) from exc
    addresses = [_plain(ipaddress.ip_address(info[4][0])) for info in found]
    allowed = allowed_networks(config.get("PBEM_WEBHOOK_ALLOWED_NETWORKS") or "")
    for address in addresses:
        if any(address in entry.network and port == entry.port for entry in allowed):
            continue
        why = _public(address)
        if why is not None:
            raise Refused(f"{parts.hostname} resolves to {address}, which is not public", why)
    return parts, addresses[0]


def _plain(address: Address) -> Address:
    """An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked, and
    connected to, as itself."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _public(address: Address) -> Why | None:
    """None for a public address, else why not. An IPv6 form that carries an
    IPv4 address (NAT64, IPv4-compatible, SIIT, 6to4, Teredo) leads to it
    through a gateway, so each IPv4 address it may carry must be public too."""
    for judged in (address, *_embedded(address)):
        why = _class(judged)
        if why is not None:
            return why
    return None


def _class(address: Address) -> Why | None:
    """Loopback, private, link-local (cloud metadata at 169.254.169.254),
    shared, reserved and multicast addresses are not public."""
    if address.is_loopback:
        return Why.LOOPBACK
    if address.is_link_local:
        return Why.LINK_LOCAL
    if any(address in network for network in PRIVATE_USE):
        return Why.PRIVATE
    if not address.is_global or address.is_multicast:
        return Why.NOT_PUBLIC
    return None


def _embedded(address: Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 transition or translation form carries."""
    if not isinstance(address, ipaddress.IPv6Address) or address in NOT_COMPATIBLE:
        return ()
    if address.teredo is not None:
        return address.teredo  # (its server, its client)
    if address.sixtofour is not None:
        return (address.sixtofour,)
    if address in NAT64_LOCAL:
        # RFC 8215's prefix is cut by each operator into a NAT64 prefix of 48,
        # 56, 64 or 96 bits, and each places the IPv4 address elsewhere
        # (RFC 6052 section 2.2): every reading must be public.
        return tuple(_after_prefix(address, length) for length in (48, 56, 64, 96))
    if any(address in network for network in LAST_32_BITS):
        return (_after_prefix(address, 96),)
    return ()


def _after_prefix(address: ipaddress.IPv6Address, prefix_length: int) -> ipaddress.IPv4Address:
    """The IPv4 address RFC 6052 places after a NAT64 prefix of that length:
    the four octets that follow it, skipping octet 8 (bits 64 to 71, zero)."""
    octets = [i for i in range(prefix_length // 8, 16) if i != 8][:4]
    return ipaddress.IPv4Address(bytes(address.packed[i] for i in octets))


def send(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    config: Mapping[str, Any],
    method: str = "POST",
) -> Answer:
    """Send once; Refused for an address that may not be asked, OSError
    (TimeoutError once the deadline has passed, refused connections, TLS
    failures) for one that did not answer."""
    parts, address = checked(url, config)
    deadline = Deadline(float(config.get("PBEM_WEBHOOK_TIMEOUT_SECONDS", 5)))
    connection = _connection(parts, str(address), deadline)
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    try:
        connection.request(method, path, body=body, headers=dict(headers))
        response = connection.getresponse()
        text = response.read(ANSWER_BYTES).decode("utf-8", "replace")
    except http.client.HTTPException as exc:
        raise OSError(f"a broken answer: {type(exc).__name__}: {exc}") from exc
    finally:
        connection.close()
    return Answer(response.status, text)


class Deadline:
    """The moment a request must be over by, whatever step it is at."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left; TimeoutError when none are."""
        left = self.ends - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        return left


class _BoundedSocket(socket.socket):
    """A socket whose every wait ends at the request's deadline. A timeout of
    the socket's own bounds one wait only: a receiver that sends a byte every
    few seconds kept a worker for minutes."""

    deadline: Deadline | None = None

    def _cut(self) -> None:
        if self.deadline is not None:
            self.settimeout(self.deadline.left())

    def connect(self, address: Any) -> None:
        self._cut()
        super().connect(address)

    def recv(self, *args: Any, **kwargs: Any) -> bytes:
        self._cut()
        return super().recv(*args, **kwargs)

    def recv_into(self, *args: Any, **kwargs: Any) -> int:
        self._cut()
        return super().recv_into(*args, **kwargs)

    def send(self, *args: Any, **kwargs: Any) -> int:
        self._cut()
        return super().send(*args, **kwargs)

    def sendall(self, *args: Any, **kwargs: Any) -> None:
        self._cut()
        super().sendall(*args, **kwargs)


class _BoundedTLSSocket(_BoundedSocket, ssl.SSLSocket):
    """The same over TLS: each read and write of the TLS layer is cut at the
    deadline too (the handshake is one wait, bounded by what is left)."""


def _open(address: str, port: int, deadline: Deadline) -> _BoundedSocket:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = _BoundedSocket(family, socket.SOCK_STREAM)
    sock.deadline = deadline
    try:
        sock.connect((address, port))
    except BaseException:
        sock.close()
        raise
    return sock


def _connection(parts: SplitResult, address: str, deadline: Deadline) -> http.client.HTTPConnection:
    port = parts.port
    assert parts.hostname is not None
    if parts.scheme == "https":
        return _PinnedHTTPS(parts.hostname, port, address=address, deadline=deadline)
    return _PinnedHTTP(parts.hostname, port, address=address, deadline=deadline)


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address while naming the host in Host."""

    def __init__(self, host: str, port: int | None, *, address: str, deadline: Deadline) -> None:
        super().__init__(host, port)
        self.address, self.deadline = address, deadline

    def connect(self) -> None:
        self.sock = _open(self.address, self.port, self.deadline)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As _PinnedHTTP, with TLS checked against the host's name."""

    def __init__(self, host: str, port: int | None, *, address: str, deadline: Deadline) -> None:
        self.tls = ssl.create_default_context()
        self.tls.sslsocket_class = _BoundedTLSSocket
        super().__init__(host, port, context=self.tls)
        self.address, self.deadline = address, deadline

    def connect(self) -> None:
        raw = _open(self.address, self.port, self.deadline)
        raw.settimeout(self.deadline.left())  # the handshake, as one wait
        sock = self.tls.wrap_socket(raw, server_hostname=self.host)
        assert isinstance(sock, _BoundedTLSSocket)  # the context's sslsocket_class
        sock.deadline = self.deadline
        self.sock = sock
