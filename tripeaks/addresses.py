"""Client addresses as the database stores them."""

from __future__ import annotations

import ipaddress


def ip_or_none(address: str | None) -> str | None:
    """An address as the database stores it, or None for anything that is not one (a forged
    X-Forwarded-For when NUM_PROXIES trusts it, a unix socket's peer)."""
    try:
        return str(ipaddress.ip_address((address or "").strip()))
    except ValueError:
        return None
