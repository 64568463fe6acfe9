"""Content-Security-Policy for the site's HTML pages (the page shell, the sign-in pages).

The policy (``CONTENT_SECURITY_POLICY`` in settings) allows scripts, styles, images, fonts and
connections (``fetch`` and the WebSockets, same origin) from the site itself only, no plugins, no
framing, forms posting only to the site. Inline ``<script>`` blocks run only with the request's
nonce: templates write ``<script nonce="{{ request.csp_nonce }}">``. Inline SVG and styles set
from JavaScript are unaffected.

The policy is enforced (``Content-Security-Policy``). No page needs an exemption: the Swagger UI
at ``/api/docs`` is drf-spectacular's split view, which loads its start-up script from
``/api/docs?script=`` (JavaScript, so no policy of its own) instead of inlining it; the admin's
scripts are all files. ``CSP_REPORT_ONLY=1`` sends it as ``Content-Security-Policy-Report-Only``
instead: browsers report what it would block without blocking it (to try a stricter policy).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


def _add_policy(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    policy: str = settings.CONTENT_SECURITY_POLICY
    if not policy or not response.get("Content-Type", "").startswith("text/html"):
        return response
    header = (
        "Content-Security-Policy-Report-Only"
        if settings.CSP_REPORT_ONLY
        else "Content-Security-Policy"
    )
    if header not in response:
        response[header] = policy.replace("{nonce}", request.csp_nonce)  # type: ignore[attr-defined]
    return response


class ContentSecurityPolicyMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        request.csp_nonce = secrets.token_urlsafe(16)  # type: ignore[attr-defined]
        return _add_policy(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        request.csp_nonce = secrets.token_urlsafe(16)  # type: ignore[attr-defined]
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        return _add_policy(request, await get_response(request))
