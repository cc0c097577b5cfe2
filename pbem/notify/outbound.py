"""Requests to addresses people give us (webhooks, push services), made so
that nobody can point pbem at its own network: the name is resolved once,
every address it resolves to must be public (or in
PBEM_WEBHOOK_ALLOWED_NETWORKS), and the connection goes to that checked
address, so a second resolution cannot swap it. Redirects are not followed
(a 3xx is the receiver's answer), each step waits at most
PBEM_WEBHOOK_TIMEOUT_SECONDS, and at most ANSWER_BYTES of the answer are read."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

ANSWER_BYTES = 1024
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Refused(Exception):
    """The address may not be asked: not http(s), or not a public address."""


@dataclass(frozen=True)
class Answer:
    status: int
    text: str  # at most ANSWER_BYTES of the body, decoded leniently


def allowed_networks(config: Mapping[str, Any]) -> list[Network]:
    """PBEM_WEBHOOK_ALLOWED_NETWORKS: comma-separated networks that may be
    asked although they are not public (a club's own chat server)."""
    text = config.get("PBEM_WEBHOOK_ALLOWED_NETWORKS") or ""
    return [
        ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()
    ]


def checked(url: str, config: Mapping[str, Any]) -> tuple[SplitResult, Address]:
    """The URL's parts and the one address to connect to; Refused if any
    address the name resolves to is not public nor allowed."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:  # a port that is not one
        raise Refused(f"not an address: {url}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username:
        raise Refused(f"not an http(s) address: {url}")
    try:
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(f"{parts.hostname} does not resolve: {exc}") from exc
    addresses = [_plain(ipaddress.ip_address(info[4][0])) for info in found]
    allowed = allowed_networks(config)
    for address in addresses:
        if not _public(address) and not any(address in network for network in allowed):
            raise Refused(f"{parts.hostname} resolves to {address}, which is not public")
    return parts, addresses[0]


def _plain(address: Address) -> Address:
    """An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as itself."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _public(address: Address) -> bool:
    """Loopback, private, link-local (cloud metadata at 169.254.169.254),
    shared, reserved and multicast addresses are not."""
    return address.is_global and not address.is_multicast


def send(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    config: Mapping[str, Any],
    method: str = "POST",
) -> Answer:
    """Send once; Refused for an address that may not be asked, OSError
    (timeouts, refused connections, TLS failures) for one that did not answer."""
    parts, address = checked(url, config)
    timeout = float(config.get("PBEM_WEBHOOK_TIMEOUT_SECONDS", 5))
    connection = _connection(parts, str(address), timeout)
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


def _connection(parts: SplitResult, address: str, timeout: float) -> http.client.HTTPConnection:
    port = parts.port
    assert parts.hostname is not None
    if parts.scheme == "https":
        return _PinnedHTTPS(parts.hostname, port, address=address, timeout=timeout)
    return _PinnedHTTP(parts.hostname, port, address=address, timeout=timeout)


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address while naming the host in Host."""

    def __init__(self, host: str, port: int | None, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As _PinnedHTTP, with TLS checked against the host's name."""

    def __init__(self, host: str, port: int | None, *, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)
