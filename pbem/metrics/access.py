"""Who may read the metrics: clients on this machine, and others with the
token. Loopback means the connection itself comes from this machine and
carries no proxy's forwarding header, whatever PBEM_TRUSTED_PROXIES makes of
the client's address: behind nginx on the same machine every visitor
connects from 127.0.0.1, and none of them may count as local."""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

FORWARDING_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")
# Where werkzeug's ProxyFix (pbem.ratelimit) keeps the connection's own address.
PROXY_FIX_ORIGINAL = "werkzeug.proxy_fix.orig"


def refusal(environ: dict[str, Any], token: str | None) -> tuple[int, str] | None:
    """None when the request may read the metrics, else (status, why)."""
    if _is_local(environ):
        return None
    if not token:
        return 403, "Metrics are served to this machine only (PBEM_METRICS_TOKEN is unset)."
    given = environ.get("HTTP_AUTHORIZATION", "").encode()
    if not hmac.compare_digest(given, f"Bearer {token}".encode()):
        return 401, "Metrics need the header Authorization: Bearer PBEM_METRICS_TOKEN."
    return None


def _is_local(environ: dict[str, Any]) -> bool:
    if any(environ.get(header) for header in FORWARDING_HEADERS):
        return False
    peer = environ.get(PROXY_FIX_ORIGINAL, {}).get("REMOTE_ADDR") or environ.get("REMOTE_ADDR")
    try:
        address = ipaddress.ip_address(peer or "")
    except ValueError:  # a Unix socket has no address: a proxy's, so not local
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback
