"""Client addresses: whose request this is (for limits), and as the database stores them."""

from __future__ import annotations

import ipaddress
from typing import cast

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle


def ip_or_none(address: str | None) -> str | None:
    """An address as the database stores it, or None for anything that is not one (a forged
    X-Forwarded-For when NUM_PROXIES trusts it, a unix socket's peer)."""
    try:
        return str(ipaddress.ip_address((address or "").strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest | Request) -> str | None:
    """DRF's notion of the client address (REMOTE_ADDR, or X-Forwarded-For with NUM_PROXIES),
    as the request rates count it: whatever the header says, so not always an address."""
    # get_ident reads only request.META, which Django's request has as DRF's does.
    return BaseThrottle().get_ident(cast(Request, request)) or None
