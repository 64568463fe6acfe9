"""Client addresses: whose request this is (for limits), and as the database stores them."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle


@functools.lru_cache(maxsize=4096)  # a player's games start from the same few addresses
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


def scope_header(scope: Mapping[str, object], name: bytes, joiner: str = ",") -> str | None:
    """An ASGI request's header `name` (lower case), its repeats joined as Django joins them
    (commas; "; " for cookies); None when absent."""
    headers = cast(Iterable[tuple[bytes, bytes]], scope.get("headers") or ())
    values = [value.decode("latin-1") for key, value in headers if key.lower() == name]
    return joiner.join(values) if values else None


def scope_address(scope: Mapping[str, object]) -> str | None:
    """`client_address` from an ASGI scope, before Django has made a request of it: the peer's
    address, or X-Forwarded-For's as NUM_PROXIES says (DRF's `get_ident`, step by step)."""
    client = cast(Sequence[object] | None, scope.get("client"))
    remote = str(client[0]) if client else None
    forwarded = scope_header(scope, b"x-forwarded-for")
    proxies = api_settings.NUM_PROXIES
    if proxies is not None:
        if proxies == 0 or forwarded is None:
            return remote or None
        hops = forwarded.split(",")
        return hops[-min(proxies, len(hops))].strip() or None
    return "".join(forwarded.split()) if forwarded else remote or None
