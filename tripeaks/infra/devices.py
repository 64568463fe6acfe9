"""A long-lived first-party cookie that names the browser (device) a player plays from.

Fair play holds a run for review when another account played the same deal today from the same
device or network address (docs/fair-play.md, "Second accounts"). The id is random, means nothing
outside this site, and is never shown to anybody but staff reviewing a held run.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import cast

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware
from rest_framework.request import Request

DEVICE_COOKIE = "tp_device"
MAX_AGE = 2 * 365 * 24 * 3600
_VALID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def valid_device(value: object) -> str:
    """The device id in a cookie value, or "" when it is not one this site hands out."""
    return value if isinstance(value, str) and _VALID.fullmatch(value) else ""


def _prepare(request: HttpRequest) -> str:
    """Set ``request.device_id``; the new id to set as a cookie, or ""."""
    device = valid_device(request.COOKIES.get(DEVICE_COOKIE))
    new = "" if device else secrets.token_urlsafe(18)
    request.device_id = device or new  # type: ignore[attr-defined]
    return new


def _set(response: HttpResponseBase, new: str) -> HttpResponseBase:
    if new:
        response.set_cookie(
            DEVICE_COOKIE,
            new,
            max_age=MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response


# What the next layer returns: a response on the sync path, an awaitable one on the async path.
Response = HttpResponseBase | Awaitable[HttpResponseBase]


@sync_and_async_middleware
def device_cookie_middleware(
    get_response: Callable[[HttpRequest], Response],
) -> Callable[[HttpRequest], Response]:
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            new = _prepare(request)
            response = await cast(Awaitable[HttpResponseBase], get_response(request))
            return _set(response, new)

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        new = _prepare(request)
        return _set(cast(HttpResponseBase, get_response(request)), new)

    return sync_middleware


def request_device(request: HttpRequest | Request) -> str:
    return valid_device(getattr(request, "device_id", ""))


def scope_device(scope: Mapping[str, object]) -> str:
    cookies = scope.get("cookies")
    return valid_device(cookies.get(DEVICE_COOKIE) if isinstance(cookies, dict) else None)
