"""Addresses the notification tests expect pbem to refuse."""

from __future__ import annotations

# IPv6 forms that carry an IPv4 address a gateway (or the host) reaches, each
# carrying one that is not public, and the site-local addresses.
TRANSITION_FORMS = {
    "NAT64 to loopback": "64:ff9b::7f00:1",
    "NAT64 to the cloud metadata": "64:ff9b::a9fe:a9fe",
    "local-use NAT64 /48 to loopback": "64:ff9b:1:7f00:0:100::",
    "local-use NAT64 /96 to a private one": "64:ff9b:1::a00:1",
    "IPv4-compatible loopback": "::127.0.0.1",
    "SIIT to a private one": "::ffff:0:10.0.0.1",
    "6to4 of loopback": "2002:7f00:1::1",
    "Teredo of a private client": "2001:0:4136:e378:8000:63bf:f5ff:fffe",
    "site-local": "fec0::1",
}
